//! `getopt`, `getopt_long` and `getopt_long_only` as glibc runs them: the program's
//! `optind`, `optarg`, `opterr` and `optopt` globals (`optind` and `opterr` start at 1),
//! argument permutation (options first, the rest moved after them, as glibc does when
//! `POSIXLY_CORRECT` is unset, which it is in a run), a leading `+` (stop at the first
//! non-option) or `-` (non-options returned as the argument of option 1) and `:`
//! (missing arguments reported as `:`, no messages), `--`, long options by exact name
//! or unambiguous prefix, `=value` and separate arguments, and glibc's messages on
//! stderr. Setting `optind` to 0 starts over. Not modelled: `-W foo` (`W;` in the
//! option string), which stops the run as unsupported.

use crate::exec::{Exec, Stop};
use crate::libc::{int, Args};
use crate::{Interpreter, Value};

/// What glibc keeps between calls (`struct _getopt_data` without the public fields).
#[derive(Clone, Debug, Default)]
pub(crate) struct State {
    initialized: bool,
    /// Where the next short option of the current element is (0: none).
    nextchar: u64,
    /// The non-options skipped so far: `argv[first_nonopt..last_nonopt]`.
    first_nonopt: i32,
    last_nonopt: i32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ordering {
    Permute,
    RequireOrder,
    ReturnInOrder,
}

/// One `struct option` (x86-64: name, has_arg, flag, val at 0, 8, 16, 24).
struct LongOption {
    name: Vec<u8>,
    has_arg: i32,
    flag: u64,
    val: i32,
}

const OPTION_SIZE: u64 = 32;

/// The call's arguments.
struct Call {
    argc: i32,
    argv: u64,
    optstring: Vec<u8>,
    longopts: Option<Vec<LongOption>>,
    longind: u64,
    long_only: bool,
}

impl Interpreter<'_> {
    pub(crate) fn getopt_call(&mut self, args: &Args<'_>) -> Exec<Option<Value>> {
        let long_only = match args.name {
            "getopt" | "getopt_long" => false,
            "getopt_long_only" => true,
            _ => return Ok(None),
        };
        let (argc, argv) = (args.int(0)?, args.u64(1)?);
        let optstring = self.mem.c_string(args.u64(2)?)?.to_vec();
        let (longopts, longind) = if args.name == "getopt" {
            (None, 0)
        } else {
            (Some(self.long_options(args.u64(3)?)?), args.u64(4)?)
        };
        let call = Call {
            argc,
            argv,
            optstring,
            longopts,
            longind,
            long_only,
        };
        Ok(Some(int(self.getopt(&call)?)))
    }

    fn long_options(&self, mut at: u64) -> Exec<Vec<LongOption>> {
        let mut out = Vec::new();
        if at == 0 {
            return Ok(out);
        }
        loop {
            let name = self.mem.read_uint(at, 8)? as u64;
            if name == 0 {
                return Ok(out);
            }
            out.push(LongOption {
                name: self.mem.c_string(name)?.to_vec(),
                has_arg: self.mem.read_uint(at + 8, 4)? as u32 as i32,
                flag: self.mem.read_uint(at + 16, 8)? as u64,
                val: self.mem.read_uint(at + 24, 4)? as u32 as i32,
            });
            at += OPTION_SIZE;
        }
    }

    /// The address of the program's global `name`, if it declares one.
    fn libc_global(&self, name: &str) -> Option<u64> {
        let (id, _) = self
            .program
            .globals
            .iter_enumerated()
            .find(|(_, g)| g.name == name && g.init.is_none())?;
        Some(self.global_address(id)?.as_u64())
    }

    fn read_libc_int(&self, name: &str, default: i32) -> Exec<i32> {
        match self.libc_global(name) {
            Some(a) => Ok(self.mem.read_uint(a, 4)? as u32 as i32),
            None => Ok(default),
        }
    }

    fn write_libc_global(&mut self, name: &str, size: u64, value: u64) -> Exec<()> {
        if let Some(a) = self.libc_global(name) {
            self.mem.write_uint(a, size, u128::from(value))?;
        }
        Ok(())
    }

    /// Sets `optind` and `opterr` to glibc's initial values (called when the run starts).
    pub(crate) fn init_getopt_globals(&mut self) -> Exec<()> {
        self.write_libc_global("optind", 4, 1)?;
        self.write_libc_global("opterr", 4, 1)
    }

    fn arg(&self, call: &Call, i: i32) -> Exec<u64> {
        Ok(self.mem.read_uint(call.argv + 8 * i as u64, 8)? as u64)
    }

    fn byte(&self, at: u64) -> Exec<u8> {
        Ok(self.mem.read_uint(at, 1)? as u8)
    }

    /// Whether `argv[i]` is not an option (`-` alone included).
    fn nonoption(&self, call: &Call, i: i32) -> Exec<bool> {
        let s = self.arg(call, i)?;
        Ok(self.byte(s)? != b'-' || self.byte(s + 1)? == 0)
    }

    /// glibc's `exchange`: moves `argv[first_nonopt..last_nonopt]` after
    /// `argv[last_nonopt..optind]`.
    fn exchange(&mut self, call: &Call, optind: i32) -> Exec<()> {
        let (mut bottom, middle, mut top) =
            (self.getopt.first_nonopt, self.getopt.last_nonopt, optind);
        let swap = |this: &mut Self, a: i32, b: i32| -> Exec<()> {
            let (pa, pb) = (call.argv + 8 * a as u64, call.argv + 8 * b as u64);
            let (va, vb) = (this.mem.read_uint(pa, 8)?, this.mem.read_uint(pb, 8)?);
            this.mem.write_uint(pa, 8, vb)?;
            this.mem.write_uint(pb, 8, va)?;
            Ok(())
        };
        while top > middle && middle > bottom {
            if top - middle > middle - bottom {
                let len = middle - bottom;
                for i in 0..len {
                    swap(self, bottom + i, top - len + i)?;
                }
                top -= len;
            } else {
                let len = top - middle;
                for i in 0..len {
                    swap(self, bottom + i, middle + i)?;
                }
                bottom += len;
            }
        }
        self.getopt.first_nonopt += optind - self.getopt.last_nonopt;
        self.getopt.last_nonopt = optind;
        Ok(())
    }

    /// Sets `optopt` and returns `code` (an option not accepted).
    fn reject(&mut self, optopt: i32, code: u8) -> Exec<i32> {
        self.write_libc_global("optopt", 4, optopt as u32 as u64)?;
        Ok(i32::from(code))
    }

    /// Writes glibc's message (given the program's name, `argv[0]`) when errors are
    /// printed.
    fn complain(
        &mut self,
        call: &Call,
        print_errors: bool,
        message: impl FnOnce(&str) -> String,
    ) -> Exec<()> {
        if print_errors {
            let message = message(&self.argv0(call)?);
            self.stderr.extend_from_slice(message.as_bytes());
        }
        Ok(())
    }

    fn argv0(&self, call: &Call) -> Exec<String> {
        let p = self.arg(call, 0)?;
        Ok(String::from_utf8_lossy(self.mem.c_string(p)?).into_owned())
    }

    fn getopt(&mut self, call: &Call) -> Exec<i32> {
        let mut optind = self.read_libc_int("optind", 1)?;
        let opterr = self.read_libc_int("opterr", 1)?;
        if call.argc < 1 {
            return Ok(-1);
        }
        // Each call clears `optarg` unless it finds an argument.
        self.write_libc_global("optarg", 8, 0)?;
        let mut spec = &call.optstring[..];
        let ordering = match spec.first() {
            Some(b'-') => {
                spec = &spec[1..];
                Ordering::ReturnInOrder
            }
            Some(b'+') => {
                spec = &spec[1..];
                Ordering::RequireOrder
            }
            _ => Ordering::Permute,
        };
        let colon = spec.first() == Some(&b':');
        let print_errors = opterr != 0 && !colon;
        if optind == 0 || !self.getopt.initialized {
            if optind == 0 {
                optind = 1;
            }
            self.getopt = State {
                initialized: true,
                nextchar: 0,
                first_nonopt: optind,
                last_nonopt: optind,
            };
        }
        let result = self.getopt_step(call, spec, ordering, colon, print_errors, &mut optind);
        self.write_libc_global("optind", 4, optind as u32 as u64)?;
        result
    }

    fn getopt_step(
        &mut self,
        call: &Call,
        spec: &[u8],
        ordering: Ordering,
        colon: bool,
        print_errors: bool,
        optind: &mut i32,
    ) -> Exec<i32> {
        let argc = call.argc;
        if self.getopt.nextchar == 0 || self.byte(self.getopt.nextchar)? == 0 {
            let g = &mut self.getopt;
            g.last_nonopt = g.last_nonopt.min(*optind);
            g.first_nonopt = g.first_nonopt.min(*optind);
            if ordering == Ordering::Permute {
                if self.getopt.first_nonopt != self.getopt.last_nonopt
                    && self.getopt.last_nonopt != *optind
                {
                    self.exchange(call, *optind)?;
                } else if self.getopt.last_nonopt != *optind {
                    self.getopt.first_nonopt = *optind;
                }
                while *optind < argc && self.nonoption(call, *optind)? {
                    *optind += 1;
                }
                self.getopt.last_nonopt = *optind;
            }
            if *optind != argc && self.mem.c_string(self.arg(call, *optind)?)? == b"--" {
                *optind += 1;
                if self.getopt.first_nonopt != self.getopt.last_nonopt
                    && self.getopt.last_nonopt != *optind
                {
                    self.exchange(call, *optind)?;
                } else if self.getopt.first_nonopt == self.getopt.last_nonopt {
                    self.getopt.first_nonopt = *optind;
                }
                self.getopt.last_nonopt = argc;
                *optind = argc;
            }
            if *optind == argc {
                if self.getopt.first_nonopt != self.getopt.last_nonopt {
                    *optind = self.getopt.first_nonopt;
                }
                return Ok(-1);
            }
            if self.nonoption(call, *optind)? {
                if ordering == Ordering::RequireOrder {
                    return Ok(-1);
                }
                let arg = self.arg(call, *optind)?;
                self.write_libc_global("optarg", 8, arg)?;
                *optind += 1;
                return Ok(1);
            }
            let element = self.arg(call, *optind)?;
            if let Some(longopts) = &call.longopts {
                if self.byte(element + 1)? == b'-' {
                    self.getopt.nextchar = element + 2;
                    return self.long_option(call, longopts, "--", colon, print_errors, optind);
                }
                if call.long_only {
                    let second = self.byte(element + 2)?;
                    let first = self.byte(element + 1)?;
                    if second != 0 || !spec.contains(&first) {
                        self.getopt.nextchar = element + 1;
                        let code =
                            self.long_option(call, longopts, "-", colon, print_errors, optind)?;
                        if code != -1 {
                            return Ok(code);
                        }
                    }
                }
            }
            self.getopt.nextchar = element + 1;
        }
        // A short option.
        let c = self.byte(self.getopt.nextchar)?;
        self.getopt.nextchar += 1;
        let found = spec.iter().position(|&b| b == c && c != 0);
        if self.byte(self.getopt.nextchar)? == 0 {
            *optind += 1;
        }
        let Some(at) = found.filter(|_| c != b':' && c != b';') else {
            self.complain(call, print_errors, |name| {
                format!("{name}: invalid option -- '{}'\n", c as char)
            })?;
            return self.reject(i32::from(c), b'?');
        };
        if c == b'W' && spec.get(at + 1) == Some(&b';') && call.longopts.is_some() {
            return Err(Stop::Unsupported(
                "getopt: `-W foo` long options (`W;`) are not modelled".into(),
            ));
        }
        if spec.get(at + 1) != Some(&b':') {
            return Ok(i32::from(c));
        }
        let rest = self.getopt.nextchar;
        if spec.get(at + 2) == Some(&b':') {
            // An optional argument: only in the same element.
            if self.byte(rest)? != 0 {
                self.write_libc_global("optarg", 8, rest)?;
                *optind += 1;
            } else {
                self.write_libc_global("optarg", 8, 0)?;
            }
        } else if self.byte(rest)? != 0 {
            self.write_libc_global("optarg", 8, rest)?;
            *optind += 1;
        } else if *optind == call.argc {
            self.complain(call, print_errors, |name| {
                format!("{name}: option requires an argument -- '{}'\n", c as char)
            })?;
            self.getopt.nextchar = 0;
            return self.reject(i32::from(c), if colon { b':' } else { b'?' });
        } else {
            let arg = self.arg(call, *optind)?;
            self.write_libc_global("optarg", 8, arg)?;
            *optind += 1;
        }
        self.getopt.nextchar = 0;
        Ok(i32::from(c))
    }

    /// glibc's `process_long_option`: the option at `nextchar` (after `prefix`).
    fn long_option(
        &mut self,
        call: &Call,
        longopts: &[LongOption],
        prefix: &str,
        colon: bool,
        print_errors: bool,
        optind: &mut i32,
    ) -> Exec<i32> {
        let text = self.mem.c_string(self.getopt.nextchar)?.to_vec();
        let name_len = text.iter().position(|&b| b == b'=').unwrap_or(text.len());
        let name = &text[..name_len];
        let mut found = longopts.iter().position(|o| o.name == name);
        if found.is_none() {
            let mut ambiguous: Vec<usize> = Vec::new();
            for (i, o) in longopts.iter().enumerate() {
                if !o.name.starts_with(name) {
                    continue;
                }
                match found {
                    None => found = Some(i),
                    Some(f) => {
                        let p = &longopts[f];
                        if call.long_only
                            || p.has_arg != o.has_arg
                            || p.flag != o.flag
                            || p.val != o.val
                        {
                            if ambiguous.is_empty() {
                                ambiguous.push(f);
                            }
                            ambiguous.push(i);
                        }
                    }
                }
            }
            if !ambiguous.is_empty() {
                self.complain(call, print_errors, |name| {
                    let mut message = format!(
                        "{name}: option '{prefix}{}' is ambiguous; possibilities:",
                        String::from_utf8_lossy(&text)
                    );
                    for i in ambiguous {
                        let option = String::from_utf8_lossy(&longopts[i].name);
                        message.push_str(&format!(" '{prefix}{option}'"));
                    }
                    message.push('\n');
                    message
                })?;
                self.getopt.nextchar = 0;
                *optind += 1;
                return self.reject(0, b'?');
            }
        }
        let Some(index) = found else {
            let element = self.arg(call, *optind)?;
            let first = self.byte(self.getopt.nextchar)?;
            let spec = call
                .optstring
                .strip_prefix(b"-")
                .or_else(|| call.optstring.strip_prefix(b"+"))
                .unwrap_or(&call.optstring);
            if !call.long_only || self.byte(element + 1)? == b'-' || !spec.contains(&first) {
                self.complain(call, print_errors, |name| {
                    let text = String::from_utf8_lossy(&text);
                    format!("{name}: unrecognized option '{prefix}{text}'\n")
                })?;
                self.getopt.nextchar = 0;
                *optind += 1;
                return self.reject(0, b'?');
            }
            return Ok(-1);
        };
        let option = &longopts[index];
        *optind += 1;
        let value_at = self.getopt.nextchar + name_len as u64 + 1;
        self.getopt.nextchar = 0;
        let option_name = String::from_utf8_lossy(&option.name).into_owned();
        if name_len < text.len() {
            if option.has_arg != 0 {
                self.write_libc_global("optarg", 8, value_at)?;
            } else {
                self.complain(call, print_errors, |name| {
                    format!("{name}: option '{prefix}{option_name}' doesn't allow an argument\n")
                })?;
                return self.reject(option.val, b'?');
            }
        } else if option.has_arg == 1 {
            if *optind < call.argc {
                let arg = self.arg(call, *optind)?;
                self.write_libc_global("optarg", 8, arg)?;
                *optind += 1;
            } else {
                self.complain(call, print_errors, |name| {
                    format!("{name}: option '{prefix}{option_name}' requires an argument\n")
                })?;
                return self.reject(option.val, if colon { b':' } else { b'?' });
            }
        }
        if call.longind != 0 {
            self.mem.write_uint(call.longind, 4, index as u128)?;
        }
        if option.flag != 0 {
            self.mem
                .write_uint(option.flag, 4, u128::from(option.val as u32))?;
            return Ok(0);
        }
        Ok(option.val)
    }
}
