//! The few POSIX calls programs make about their environment: `isatty`, `ioctl`,
//! `fstat`, `pathconf`, and the signal calls that install handlers or masks.
//!
//! The run has no terminal: `isatty` is 0 and `ioctl` fails with `ENOTTY` on every open
//! descriptor (`EBADF` on others). `fstat` describes stdin, stdout and stderr as pipes
//! (stdin as a regular file with [`crate::RunConfig::stdin_is_file`]) and a file
//! stream's descriptor as a regular file (or a directory) of its current
//! size, with fixed times and owners. `pathconf` knows Linux's `NAME_MAX`, `PATH_MAX`
//! and `PIPE_BUF` (for any path, as glibc does for the last two). No signal is ever delivered: `sigaction`,
//! `signal` and `sigprocmask` record what they are given and report it back, and the
//! `sigset_t` functions work on the program's sets; `raise` and `kill` are not
//! modelled.

use rustc_hash::FxHashMap;

use crate::exec::{Exec, Stop};
use crate::libc::files::Target;
use crate::libc::{int, long, Args};
use crate::{Interpreter, Value};

/// Bytes of a `struct stat` (x86-64).
const STAT_SIZE: u64 = 144;
/// The highest signal number.
const MAX_SIGNAL: i32 = 64;
/// Where the fields of glibc's `struct sigaction` are (x86-64): the handler, the mask
/// (a 128-byte `sigset_t`, of which the kernel keeps the first 8), the flags and the
/// restorer.
const SA_MASK: u64 = 8;
const SA_FLAGS: u64 = 136;
const SA_RESTORER: u64 = 144;
/// The flag glibc adds to every action it installs (with its own restorer).
const SA_RESTORER_FLAG: u32 = 0x0400_0000;

/// A signal's disposition, as the kernel keeps it.
#[derive(Clone, Copy, Debug, Default)]
struct Action {
    handler: u64,
    mask: u64,
    flags: u32,
    restorer: u64,
}

/// The signal dispositions and mask of a run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Signals {
    /// The action installed for each signal (absent: the default).
    actions: FxHashMap<i32, Action>,
    /// The blocked signals (bit `n - 1` for signal `n`).
    blocked: u64,
}

/// The signals that can be neither caught nor blocked.
const UNBLOCKABLE: u64 = (1 << (libc::SIGKILL - 1)) | (1 << (libc::SIGSTOP - 1));

/// What `fstat` reports about a descriptor.
struct StatInfo {
    mode: u32,
    size: u64,
    nlink: u64,
    ino: u64,
}

impl Interpreter<'_> {
    /// Whether `fd` is an open descriptor, and what it is.
    fn fd_info(&self, fd: i32) -> Option<StatInfo> {
        const S_IFIFO: u32 = 0o010000;
        const S_IFDIR: u32 = 0o040000;
        const S_IFREG: u32 = 0o100000;
        if let Some(k) = usize::try_from(fd).ok().filter(|k| *k < 3) {
            let file = k == 0 && self.stdin_is_file;
            return (!self.files.std_closed[k]).then_some(StatInfo {
                mode: if file {
                    S_IFREG | 0o644
                } else {
                    S_IFIFO | 0o600
                },
                size: if file { self.stdin.len() as u64 } else { 0 },
                nlink: 1,
                ino: fd as u64 + 1,
            });
        }
        let (target, size, linked) = self.files.describe_fd(fd)?;
        Some(match target {
            Target::Dir => StatInfo {
                mode: S_IFDIR | 0o755,
                size: 4096,
                nlink: 2,
                ino: 3,
            },
            Target::File(id) => StatInfo {
                mode: S_IFREG | 0o644,
                size,
                nlink: u64::from(linked),
                ino: u64::from(id) + 16,
            },
        })
    }

    /// Fails with `errno` = `EINVAL` for a bad signal number (glibc refuses its two
    /// internal signals, 32 and 33, except in `sigismember`).
    fn signal_number(&mut self, sig: i32, internal_ok: bool) -> Exec<Option<i32>> {
        if (1..=MAX_SIGNAL).contains(&sig) && (internal_ok || !(32..=33).contains(&sig)) {
            Ok(Some(sig))
        } else {
            self.set_errno(libc::EINVAL)?;
            Ok(None)
        }
    }

    /// The byte and bit of `sig` in a `sigset_t`.
    fn sigset_bit(sig: i32) -> (u64, u8) {
        let bit = (sig - 1) as u64;
        (bit / 8, 1 << (bit % 8))
    }

    pub(crate) fn posix_call(&mut self, args: &Args<'_>) -> Exec<Option<Value>> {
        let name = args.name;
        Ok(Some(match name {
            "isatty" => {
                let errno = if self.fd_info(args.int(0)?).is_some() {
                    libc::ENOTTY
                } else {
                    libc::EBADF
                };
                self.set_errno(errno)?;
                int(0)
            }
            "ioctl" => {
                let errno = if self.fd_info(args.int(0)?).is_some() {
                    libc::ENOTTY
                } else {
                    libc::EBADF
                };
                self.set_errno(errno)?;
                int(-1)
            }
            "fstat" | "fstat64" | "__fxstat" | "__fxstat64" => {
                let (fd, buf) = if name.starts_with("__") {
                    (args.int(1)?, args.u64(2)?)
                } else {
                    (args.int(0)?, args.u64(1)?)
                };
                let Some(info) = self.fd_info(fd) else {
                    self.set_errno(libc::EBADF)?;
                    return Ok(Some(int(-1)));
                };
                let mut st = vec![0u8; STAT_SIZE as usize];
                let mut put = |offset: usize, bytes: &[u8]| {
                    st[offset..offset + bytes.len()].copy_from_slice(bytes);
                };
                put(8, &info.ino.to_le_bytes());
                put(16, &info.nlink.to_le_bytes());
                put(24, &info.mode.to_le_bytes());
                put(48, &info.size.to_le_bytes());
                put(56, &4096u64.to_le_bytes());
                put(64, &info.size.div_ceil(512).to_le_bytes());
                self.mem.write(buf, &st)?;
                int(0)
            }
            "sigemptyset" | "sigfillset" => {
                let set = args.u64(0)?;
                let mut bytes = vec![if name == "sigemptyset" { 0 } else { 0xff }; 128];
                if name == "sigfillset" {
                    // glibc keeps its two internal signals (32 and 33) out.
                    bytes[3] &= !0x80;
                    bytes[4] &= !0x01;
                }
                self.mem.write(set, &bytes)?;
                int(0)
            }
            "sigaddset" | "sigdelset" | "sigismember" => {
                let set = args.u64(0)?;
                let Some(sig) = self.signal_number(args.int(1)?, name == "sigismember")? else {
                    return Ok(Some(int(-1)));
                };
                let (byte, mask) = Self::sigset_bit(sig);
                let old = self.mem.read_uint(set + byte, 1)? as u8;
                match name {
                    "sigaddset" => self.mem.write(set + byte, &[old | mask])?,
                    "sigdelset" => self.mem.write(set + byte, &[old & !mask])?,
                    _ => return Ok(Some(int(i32::from(old & mask != 0)))),
                }
                int(0)
            }
            "sigaction" => {
                let (act, old) = (args.u64(1)?, args.u64(2)?);
                let Some(sig) = self.signal_number(args.int(0)?, false)? else {
                    return Ok(Some(int(-1)));
                };
                if act != 0 && (sig == libc::SIGKILL || sig == libc::SIGSTOP) {
                    self.set_errno(libc::EINVAL)?;
                    return Ok(Some(int(-1)));
                }
                let new = if act != 0 {
                    Some(Action {
                        handler: self.mem.read_uint(act, 8)? as u64,
                        mask: self.mem.read_uint(act + SA_MASK, 8)? as u64 & !UNBLOCKABLE,
                        flags: self.mem.read_uint(act + SA_FLAGS, 4)? as u32 | SA_RESTORER_FLAG,
                        restorer: self.mem.read_uint(act + SA_RESTORER, 8)? as u64,
                    })
                } else {
                    None
                };
                if old != 0 {
                    // glibc writes these fields only (and 8 bytes of the mask).
                    let previous = self.signals.actions.get(&sig).copied().unwrap_or_default();
                    self.mem.write_uint(old, 8, u128::from(previous.handler))?;
                    self.mem
                        .write_uint(old + SA_MASK, 8, u128::from(previous.mask))?;
                    self.mem
                        .write_uint(old + SA_FLAGS, 4, u128::from(previous.flags))?;
                    self.mem
                        .write_uint(old + SA_RESTORER, 8, u128::from(previous.restorer))?;
                }
                if let Some(new) = new {
                    self.signals.actions.insert(sig, new);
                }
                int(0)
            }
            "signal" | "bsd_signal" => {
                let handler = args.u64(1)?;
                let Some(sig) = self.signal_number(args.int(0)?, false)? else {
                    return Ok(Some(long(-1)));
                };
                if sig == libc::SIGKILL || sig == libc::SIGSTOP {
                    self.set_errno(libc::EINVAL)?;
                    return Ok(Some(long(-1)));
                }
                // glibc's BSD semantics: restart system calls, block the signal in its
                // handler.
                let previous = self.signals.actions.insert(
                    sig,
                    Action {
                        handler,
                        mask: 1 << (sig - 1),
                        flags: libc::SA_RESTART as u32 | SA_RESTORER_FLAG,
                        restorer: 0,
                    },
                );
                long(previous.map_or(0, |a| a.handler) as i64)
            }
            "sigprocmask" | "pthread_sigmask" => {
                let (how, set, old) = (args.int(0)?, args.u64(1)?, args.u64(2)?);
                if set != 0
                    && !matches!(how, libc::SIG_BLOCK | libc::SIG_UNBLOCK | libc::SIG_SETMASK)
                {
                    if name == "pthread_sigmask" {
                        return Ok(Some(int(libc::EINVAL)));
                    }
                    self.set_errno(libc::EINVAL)?;
                    return Ok(Some(int(-1)));
                }
                let given = if set != 0 {
                    Some(self.mem.read_uint(set, 8)? as u64)
                } else {
                    None
                };
                if old != 0 {
                    // The kernel writes 8 bytes of the set.
                    self.mem
                        .write_uint(old, 8, u128::from(self.signals.blocked))?;
                }
                if let Some(given) = given {
                    let blocked = &mut self.signals.blocked;
                    *blocked = match how {
                        libc::SIG_BLOCK => *blocked | given,
                        libc::SIG_UNBLOCK => *blocked & !given,
                        _ => given,
                    } & !UNBLOCKABLE;
                }
                int(0)
            }
            "pathconf" | "fpathconf" => match args.int(1)? {
                libc::_PC_NAME_MAX => long(255),
                libc::_PC_PATH_MAX | libc::_PC_PIPE_BUF => long(4096),
                other => {
                    return Err(Stop::Unsupported(format!(
                        "{name} of the limit {other} (only _PC_NAME_MAX, _PC_PATH_MAX and \
                         _PC_PIPE_BUF are modelled)"
                    )))
                }
            },
            _ => return Ok(None),
        }))
    }
}
