//! Readable C-like text for solver formulas.
//!
//! Formulas are printed by Z3 as SMT-LIB s-expressions; this module parses that text and
//! renders it infix, with input symbols renamed to C names (parameters, `*p` for the
//! bytes a pointer parameter points to, globals by name). Operators it does not know are
//! kept in prefix form, so nothing is lost, only less pretty.

use rustc_hash::FxHashMap;

/// The longest text a shared subterm (a `let`) is shown as; longer ones are `…`.
const MAX_SHARED_TEXT: usize = 400;

/// An s-expression.
#[derive(Clone, Debug, PartialEq)]
enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

fn parse(text: &str) -> Option<Sexp> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            '(' | ')' => {
                tokens.push(c.to_string());
                chars.next();
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            '|' => {
                let mut atom = String::new();
                chars.next();
                for c in chars.by_ref() {
                    if c == '|' {
                        break;
                    }
                    atom.push(c);
                }
                tokens.push(atom);
            }
            _ => {
                let mut atom = String::new();
                while let Some(&c) = chars.peek() {
                    if c == '(' || c == ')' || c.is_whitespace() {
                        break;
                    }
                    atom.push(c);
                    chars.next();
                }
                tokens.push(atom);
            }
        }
    }
    let mut pos = 0;
    let sexp = parse_tokens(&tokens, &mut pos)?;
    Some(sexp)
}

fn parse_tokens(tokens: &[String], pos: &mut usize) -> Option<Sexp> {
    let token = tokens.get(*pos)?;
    *pos += 1;
    if token == "(" {
        let mut items = Vec::new();
        while tokens.get(*pos)? != ")" {
            items.push(parse_tokens(tokens, pos)?);
        }
        *pos += 1;
        Some(Sexp::List(items))
    } else {
        Some(Sexp::Atom(token.clone()))
    }
}

/// Names for input symbols and known addresses.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// Symbol name (e.g. `P3.a0`) to C name.
    pub symbols: FxHashMap<String, String>,
    /// Concrete address to C lvalue text (globals).
    pub addresses: Vec<(u64, u64, String)>,
    /// Name of the input memory symbols (rendered `mem`).
    pub memories: Vec<String>,
    /// Function addresses, and the symbols of function pointer inputs: a pointer
    /// compared with a function's address reads `f == &name`.
    pub functions: Vec<(u64, String)>,
    pub function_pointers: Vec<String>,
    /// The functions whose paths past the unwinding bound are abstracted (`uf.KEY.KIND`
    /// terms), by key (`P3`: a pair, `o3`/`n3`: one version's own).
    pub procedures: FxHashMap<String, String>,
}

/// Renders a formula printed by Z3 as C-like text.
pub fn render(formula: &str, names: &Names) -> String {
    let Some(sexp) = parse(formula) else {
        return formula.to_string();
    };
    let mut lets = FxHashMap::default();
    VISITS.with(|v| v.set(MAX_VISITS));
    expr(&sexp, names, &mut lets, 0)
}

/// The subterms one formula's text may visit; past them the rest is `…` (the solver's
/// formulas over memory can be large enough to take minutes to print).
const MAX_VISITS: usize = 200_000;

thread_local! {
    static VISITS: std::cell::Cell<usize> = const { std::cell::Cell::new(MAX_VISITS) };
}

fn bv_literal(atom: &str) -> Option<(u128, u32)> {
    if let Some(hex) = atom.strip_prefix("#x") {
        return Some((u128::from_str_radix(hex, 16).ok()?, hex.len() as u32 * 4));
    }
    if let Some(bin) = atom.strip_prefix("#b") {
        return Some((u128::from_str_radix(bin, 2).ok()?, bin.len() as u32));
    }
    None
}

fn signed_text(value: u128, bits: u32) -> String {
    if bits == 0 || bits > 128 {
        return value.to_string();
    }
    let sign = 1u128 << (bits - 1);
    if bits < 128 && value & sign != 0 && bits >= 8 {
        let magnitude = (1u128 << bits) - value;
        if magnitude < 1 << 20 {
            return format!("-{magnitude}");
        }
    }
    if value > 0xffff {
        format!("{value:#x}")
    } else {
        value.to_string()
    }
}

/// `(ite C a b) == k` (or `!=` when not `equal`) with `a`, `b`, `k` literals and `a !=
/// b`, as C is encoded to a number: `C` itself when it holds exactly then, else `!C`
/// (`(c == 48 ? 1 : 0) != 0` reads `c == 48`).
fn truth_of_ite(args: &[Sexp], equal: bool) -> Option<Sexp> {
    let (ite, k) = match (&args[0], &args[1]) {
        (Sexp::List(l), Sexp::Atom(k)) => (l, k),
        (Sexp::Atom(k), Sexp::List(l)) => (l, k),
        _ => return None,
    };
    let [Sexp::Atom(head), cond, Sexp::Atom(a), Sexp::Atom(b)] = ite.as_slice() else {
        return None;
    };
    let (a, b, k) = (bv_literal(a)?, bv_literal(b)?, bv_literal(k)?);
    if head != "ite" || a == b || (k != a && k != b) {
        return None;
    }
    Some(if (k == a) == equal {
        cond.clone()
    } else {
        Sexp::List(vec![Sexp::Atom("not".to_string()), cond.clone()])
    })
}

fn infix(op: &str) -> Option<(&'static str, u8)> {
    Some(match op {
        "and" => ("&&", 2),
        "or" => ("||", 1),
        "=" => ("==", 5),
        "bvslt" | "bvult" | "fp.lt" => ("<", 6),
        "bvsle" | "bvule" | "fp.leq" => ("<=", 6),
        "bvsgt" | "bvugt" | "fp.gt" => (">", 6),
        "bvsge" | "bvuge" | "fp.geq" => (">=", 6),
        "fp.eq" => ("==", 5),
        "bvadd" | "fp.add" => ("+", 8),
        "bvsub" | "fp.sub" => ("-", 8),
        "bvmul" | "fp.mul" => ("*", 9),
        "bvsdiv" | "bvudiv" | "fp.div" => ("/", 9),
        "bvsrem" | "bvurem" => ("%", 9),
        "bvand" => ("&", 4),
        "bvor" => ("|", 3),
        "bvxor" => ("^", 3),
        "bvshl" => ("<<", 7),
        "bvashr" | "bvlshr" => (">>", 7),
        "=>" => ("implies", 0),
        _ => return None,
    })
}

fn expr(sexp: &Sexp, names: &Names, lets: &mut FxHashMap<String, String>, prec: u8) -> String {
    let left = VISITS.with(|v| {
        let left = v.get().saturating_sub(1);
        v.set(left);
        left
    });
    if left == 0 {
        return "…".to_string();
    }
    match sexp {
        Sexp::Atom(atom) => {
            if let Some((value, bits)) = bv_literal(atom) {
                return signed_text(value, bits);
            }
            if let Some(text) = lets.get(atom) {
                return text.clone();
            }
            if let Some(name) = names.symbols.get(atom) {
                return name.clone();
            }
            atom.clone()
        }
        Sexp::List(items) => {
            let Some(Sexp::Atom(head)) = items.first() else {
                // Indexed operators: ((_ extract 7 0) x), ((_ sign_extend 24) x).
                if let (Some(Sexp::List(index)), Some(arg)) = (items.first(), items.get(1)) {
                    if matches!(index.get(1), Some(Sexp::Atom(a)) if a == "zero_extend" || a == "sign_extend")
                    {
                        return expr(arg, names, lets, prec);
                    }
                    // Bits `hi..lo` of a value: a truncation (`lo` 0) is a cast to the
                    // unsigned type of that width; others shift and mask.
                    if matches!(index.get(1), Some(Sexp::Atom(a)) if a == "extract") {
                        let bound = |i: usize| match index.get(i) {
                            Some(Sexp::Atom(n)) => n.parse::<u32>().ok(),
                            _ => None,
                        };
                        if let (Some(hi), Some(lo)) = (bound(2), bound(3)) {
                            let width = hi.saturating_sub(lo) + 1;
                            let cast = match width {
                                8 => Some("unsigned char"),
                                16 => Some("unsigned short"),
                                32 => Some("unsigned int"),
                                64 => Some("unsigned long"),
                                _ => None,
                            };
                            let mask = if width >= 64 {
                                u64::MAX
                            } else {
                                (1u64 << width) - 1
                            };
                            return match (lo, cast) {
                                (0, Some(ty)) => format!("({ty}){}", expr(arg, names, lets, 10)),
                                (0, None) => format!("({} & {mask:#x})", expr(arg, names, lets, 5)),
                                _ => format!("({} >> {lo} & {mask:#x})", expr(arg, names, lets, 8)),
                            };
                        }
                    }
                    if matches!(index.get(1), Some(Sexp::Atom(a)) if a == "to_fp") {
                        return format!("(double){}", expr(arg, names, lets, 10));
                    }
                }
                return format!(
                    "({})",
                    items
                        .iter()
                        .map(|i| expr(i, names, lets, 0))
                        .collect::<Vec<_>>()
                        .join(" ")
                );
            };
            let args = &items[1..];
            match head.as_str() {
                "let" => {
                    if let Some(Sexp::List(bindings)) = args.first() {
                        for binding in bindings {
                            if let Sexp::List(pair) = binding {
                                if let (Some(Sexp::Atom(name)), Some(value)) =
                                    (pair.first(), pair.get(1))
                                {
                                    let mut text = expr(value, names, lets, 10);
                                    // Each use repeats the text: a long one would make
                                    // the output (and the time) grow with every level.
                                    if text.len() > MAX_SHARED_TEXT {
                                        text = "…".to_string();
                                    }
                                    lets.insert(name.clone(), text);
                                }
                            }
                        }
                    }
                    return args
                        .get(1)
                        .map_or_else(String::new, |body| expr(body, names, lets, prec));
                }
                "not" => {
                    if let Some(Sexp::List(inner)) = args.first() {
                        if let Some(Sexp::Atom(h)) = inner.first() {
                            if let Some(truth) = (h == "=" && inner.len() == 3)
                                .then(|| truth_of_ite(&inner[1..], false))
                                .flatten()
                            {
                                return expr(&truth, names, lets, prec);
                            }
                            // Integer comparisons negate to their opposites (not those
                            // of floating values: NaN is neither).
                            let opposite = match h.as_str() {
                                "bvsle" => Some("bvsgt"),
                                "bvslt" => Some("bvsge"),
                                "bvsgt" => Some("bvsle"),
                                "bvsge" => Some("bvslt"),
                                "bvule" => Some("bvugt"),
                                "bvult" => Some("bvuge"),
                                "bvugt" => Some("bvule"),
                                "bvuge" => Some("bvult"),
                                _ => None,
                            };
                            if let Some(op) = opposite.filter(|_| inner.len() == 3) {
                                let mut flipped = inner.clone();
                                flipped[0] = Sexp::Atom(op.to_string());
                                return expr(&Sexp::List(flipped), names, lets, prec);
                            }
                            if h == "=" && inner.len() == 3 {
                                let text = format!(
                                    "{} != {}",
                                    expr(&inner[1], names, lets, 6),
                                    expr(&inner[2], names, lets, 6)
                                );
                                return paren(text, 5, prec);
                            }
                        }
                    }
                    return format!("!{}", expr(&args[0], names, lets, 11));
                }
                "bvneg" | "fp.neg" => return format!("-{}", expr(&args[0], names, lets, 11)),
                "bvnot" => return format!("~{}", expr(&args[0], names, lets, 11)),
                "ite" if args.len() == 3 => {
                    let text = format!(
                        "{} ? {} : {}",
                        expr(&args[0], names, lets, 1),
                        expr(&args[1], names, lets, 1),
                        expr(&args[2], names, lets, 1)
                    );
                    return paren(text, 0, prec);
                }
                "select" if args.len() == 2 => {
                    // A byte of a named object, by the object's address.
                    if let Some((start, _, name)) = literal_address(&args[1], names) {
                        return match start {
                            0 => format!("mem[&{name}]"),
                            k => format!("mem[&{name} + {k}]"),
                        };
                    }
                    let address = expr(&args[1], names, lets, 10);
                    // A read of the input memory; of another (one stored to), that
                    // memory is said, not dropped.
                    let memory = expr(&args[0], names, lets, 11);
                    if memory == "mem" {
                        return format!("mem[{address}]");
                    }
                    return format!("{memory}[{address}]");
                }
                "concat" => {
                    if let Some(text) = load_text(args, names, lets) {
                        return text;
                    }
                }
                _ => {}
            }
            if head == "=" && args.len() == 2 {
                if let Some(truth) = truth_of_ite(args, true) {
                    return expr(&truth, names, lets, prec);
                }
                if let Some(text) = function_equality(args, names) {
                    return paren(text, 5, prec);
                }
            }
            if let Some(text) = call_text(head, args, names, lets) {
                return text;
            }
            if let Some((op, p)) = infix(head) {
                let parts: Vec<String> = args.iter().map(|a| expr(a, names, lets, p + 1)).collect();
                if parts.len() == 1 {
                    return parts[0].clone();
                }
                let text = parts.join(&format!(" {op} "));
                return paren(text, p, prec);
            }
            if let Some(text) = beyond_bound_text(head, args, names, lets) {
                return text;
            }
            let parts: Vec<String> = args.iter().map(|a| expr(a, names, lets, 0)).collect();
            format!("{head}({})", parts.join(", "))
        }
    }
}

/// `(= f #x0000000008000010)` with `f` a function pointer input and the literal a
/// function's address: `f == &name`.
fn function_equality(args: &[Sexp], names: &Names) -> Option<String> {
    let (Sexp::Atom(a), Sexp::Atom(b)) = (&args[0], &args[1]) else {
        return None;
    };
    let (symbol, literal) = if bv_literal(b).is_some() {
        (a, b)
    } else {
        (b, a)
    };
    if !names.function_pointers.contains(symbol) {
        return None;
    }
    let (value, 64) = bv_literal(literal)? else {
        return None;
    };
    let (_, function) = names
        .functions
        .iter()
        .find(|(at, _)| u128::from(*at) == value)?;
    Some(format!("{} == &{function}", names.symbols.get(symbol)?))
}

/// What a called function does on its paths past the unwinding bound (`uf.KEY.KIND`,
/// applied to the arguments, the memory and the output), as
/// `beyond_bound(NAME).KIND(arguments)`: `ret` its result, `mem` the memory after it,
/// `io` the output, `term` whether it returns.
fn beyond_bound_text(
    head: &str,
    args: &[Sexp],
    names: &Names,
    lets: &mut FxHashMap<String, String>,
) -> Option<String> {
    let (key, kind) = head.strip_prefix("uf.")?.split_once('.')?;
    let name = names.procedures.get(key)?;
    let shown = args.get(..args.len().checked_sub(2)?)?;
    let rendered: Vec<String> = shown.iter().map(|a| expr(a, names, lets, 0)).collect();
    Some(format!(
        "beyond_bound({name}).{kind}({})",
        rendered.join(", ")
    ))
}

/// What a call of an unknown function gives, as the call: `ext.NAME.KIND.SIG[.BITS]`
/// applied to the arguments, the memory and the output so far (`ret`: its result,
/// `mem`: the memory after it, `io`: the output after it); `NAME` is `(indirect)` for a
/// call through a pointer (the target first), `(indirect).old` or `.new` for one
/// version's own; `libm.NAME.BITS` is a pure math function.
fn call_text(
    head: &str,
    args: &[Sexp],
    names: &Names,
    lets: &mut FxHashMap<String, String>,
) -> Option<String> {
    if let Some(rest) = head.strip_prefix("libm.") {
        let name = rest.split('.').next()?;
        let rendered: Vec<String> = args.iter().map(|a| expr(a, names, lets, 0)).collect();
        return Some(format!("{name}({})", rendered.join(", ")));
    }
    // The memory and the output the call starts from (the last two) are not shown, and
    // not rendered: they may be large.
    let shown = args.get(..args.len().checked_sub(2)?)?;
    let mut rendered: Vec<String> = shown.iter().map(|a| expr(a, names, lets, 0)).collect();
    let rest = head.strip_prefix("ext.")?;
    let (name, rest) = match rest.strip_prefix("(indirect)") {
        Some(rest) => ("(indirect)", rest.strip_prefix('.')?),
        None => rest.split_once('.')?,
    };
    let mut parts = rest.split('.');
    let mut kind = parts.next()?;
    let mut version = "";
    if matches!(kind, "old" | "new") {
        version = kind;
        kind = parts.next()?;
    }
    let call = if name == "(indirect)" {
        if rendered.is_empty() {
            return None;
        }
        let target = rendered.remove(0);
        format!("(*{target})({})", rendered.join(", "))
    } else {
        format!("{name}({})", rendered.join(", "))
    };
    let call = if version.is_empty() {
        call
    } else {
        format!("{version} {call}")
    };
    Some(match kind {
        "ret" => call,
        "mem" => format!("memory after {call}"),
        "io" => format!("output after {call}"),
        _ => return None,
    })
}

fn paren(text: String, own: u8, outer: u8) -> String {
    if own < outer {
        format!("({text})")
    } else {
        text
    }
}

/// The named object a numeral address falls in: the offset into it, its length and
/// its name.
fn literal_address<'a>(address: &Sexp, names: &'a Names) -> Option<(u64, u64, &'a str)> {
    let Sexp::Atom(atom) = address else {
        return None;
    };
    let (value, _) = bv_literal(atom)?;
    let value = value as u64;
    names
        .addresses
        .iter()
        .find(|(start, len, _)| value >= *start && value < start + len)
        .map(|(start, len, name)| (value - start, *len, name.as_str()))
}

/// `(concat (select m (bvadd a 3)) ... (select m a))`: a little-endian load, `*a`.
fn load_text(args: &[Sexp], names: &Names, lets: &mut FxHashMap<String, String>) -> Option<String> {
    let mut base: Option<&Sexp> = None;
    for arg in args.iter().rev() {
        let Sexp::List(sel) = arg else { return None };
        if !matches!(sel.first(), Some(Sexp::Atom(h)) if h == "select") {
            return None;
        }
        // Only a load from the input memory reads as `*a`; one from a memory stored
        // to is not what `*a` was.
        if !matches!(sel.get(1), Some(Sexp::Atom(m)) if names.symbols.get(m).is_some_and(|n| n == "mem"))
        {
            return None;
        }
        if base.is_none() {
            base = sel.get(2);
        }
    }
    let base = base?;
    if let Some((value, _)) = bv_literal(match base {
        Sexp::Atom(a) => a,
        _ => "",
    }) {
        for (start, len, name) in &names.addresses {
            if (value as u64) >= *start && (value as u64) < start + len {
                let offset = value as u64 - start;
                return Some(if offset == 0 {
                    name.clone()
                } else {
                    format!("{name}@+{offset}")
                });
            }
        }
    }
    let text = expr(base, names, lets, 11);
    Some(format!("*{text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_subterms_do_not_multiply_the_text() {
        // a1 = a0 + a0, a2 = a1 + a1, ...: written out, a40 would be 2^40 terms.
        let mut formula = String::from("(let ((a0 x)) ");
        for i in 1..=40 {
            formula.push_str(&format!("(let ((a{i} (bvadd a{p} a{p}))) ", p = i - 1));
        }
        formula.push_str("a40");
        formula.push_str(&")".repeat(41));
        let text = render(&formula, &Names::default());
        assert!(
            text.contains('…') && text.len() < 2 * MAX_SHARED_TEXT,
            "{text}"
        );
    }

    /// What a callee does past the unwinding bound is named by the callee, not by the
    /// solver's symbol (`uf.P208.term`); a key no function has keeps the symbol.
    #[test]
    fn bits_taken_from_a_value_keep_their_meaning() {
        // `a - b <= 65535` on unsigned ints simplifies to its upper 16 bits being 0:
        // read as the whole difference being 0, the condition was wrong (lz4).
        let mut names = Names::default();
        names.symbols.insert("P0.a0".into(), "a".into());
        assert_eq!(
            render("(= ((_ extract 31 16) P0.a0) #x0000)", &names),
            "(a >> 16 & 0xffff) == 0"
        );
        assert_eq!(
            render("(= ((_ extract 7 0) P0.a0) #x05)", &names),
            "(unsigned char)a == 5"
        );
        assert_eq!(
            render("(= ((_ extract 2 0) P0.a0) #b101)", &names),
            "(a & 0x7) == 5"
        );
        assert_eq!(render("((_ zero_extend 32) P0.a0)", &names), "a");
    }

    #[test]
    fn renders_a_callee_past_the_bound_by_its_name() {
        let mut names = Names::default();
        names.symbols.insert("P0.a0".into(), "tok".into());
        names
            .procedures
            .insert("P208".into(), "json_tokener_reset".into());
        assert_eq!(
            render("(uf.P208.term P0.a0 M0 IO0)", &names),
            "beyond_bound(json_tokener_reset).term(tok)"
        );
        assert_eq!(
            render("(uf.P9.term P0.a0 M0 IO0)", &names),
            "uf.P9.term(tok, M0, IO0)"
        );
    }

    #[test]
    fn renders_calls_of_unknown_functions_and_function_addresses() {
        let mut names = Names::default();
        names.symbols.insert("P0.a0".into(), "f".into());
        names.symbols.insert("P0.a1".into(), "x".into());
        names.symbols.insert("M0".into(), "mem".into());
        names.function_pointers.push("P0.a0".into());
        names.functions.push((0x800_0010, "inc".into()));
        let ret = "(|ext.(indirect).old.ret.64_32.32| P0.a0 P0.a1 M0 IO0)";
        assert_eq!(render(ret, &names), "old (*f)(x)");
        let formula = format!("(ite (= P0.a0 #x0000000008000010) {ret} #x00000001)");
        assert_eq!(render(&formula, &names), "f == &inc ? old (*f)(x) : 1");
        assert_eq!(
            render("(|ext.puts.mem.64| P0.a0 M0 IO0)", &names),
            "memory after puts(f)"
        );
        assert_eq!(render("(libm.sin.64 P0.a1)", &names), "sin(x)");
        // Another 64-bit literal, or another symbol, keeps its number.
        assert_eq!(
            render("(= P0.a1 #x0000000008000010)", &names),
            "x == 0x8000010"
        );
    }

    #[test]
    fn renders_infix_with_names() {
        let mut names = Names::default();
        names.symbols.insert("P0.a0".into(), "x".into());
        let text = render(
            "(and (bvsge P0.a0 #x00000000) (not (= P0.a0 #x00000004)))",
            &names,
        );
        assert_eq!(text, "x >= 0 && x != 4");
        names.symbols.insert("P0.mem".into(), "mem".into());
        let text = render("(= (concat (select P0.mem (bvadd P0.a0 #x0000000000000001)) (select P0.mem P0.a0)) #x0004)", &names);
        assert_eq!(text, "*x == 4");
    }

    #[test]
    fn a_condition_encoded_as_a_number_reads_as_the_condition() {
        let mut names = Names::default();
        names.symbols.insert("P0.a0".into(), "c".into());
        names.symbols.insert("P0.a1".into(), "n".into());
        let text = render(
            "(and (not (= (ite (= P0.a0 #x00000030) #x00000001 #x00000000) #x00000000)) \
             (= (ite (bvsle P0.a1 #x00000039) #x00000001 #x00000000) #x00000000))",
            &names,
        );
        assert_eq!(text, "c == 48 && n > 57");
        // Floating comparisons keep their negation: NaN is neither side.
        let text = render("(not (fp.leq P0.a0 P0.a1))", &names);
        assert_eq!(text, "!(c <= n)");
    }
}
