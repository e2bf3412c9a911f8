//! Colour for the text reports on a terminal: headings in bold, change kinds and
//! verdicts in their colours, lines only in the old version red and only in the new one
//! green. `--color auto` (the default) colours when standard output is a terminal and
//! `NO_COLOR` is not set; `always` and `never` force the choice. The words are the
//! same either way: colour only marks them.

use std::io::IsTerminal;
use std::sync::OnceLock;

use clap::ValueEnum;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

static ENABLED: OnceLock<bool> = OnceLock::new();

/// Decides once, at start-up, whether text output is coloured.
pub fn init(choice: ColorChoice) {
    let on = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let _ = ENABLED.set(on);
}

/// Prints a text report, coloured when colour is on.
pub fn print_text(text: &str) {
    if *ENABLED.get().unwrap_or(&false) {
        print!("{}", colour(text));
    } else {
        print!("{text}");
    }
}

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const CYAN: &str = "\x1b[36m";

/// The text with ANSI colours, line by line.
pub fn colour(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        out.push_str(&colour_line(body));
        out.push_str(end);
    }
    out
}

fn paint(code: &str, s: &str) -> String {
    format!("{code}{s}{RESET}")
}

fn colour_line(line: &str) -> String {
    let trimmed = line.trim_start();
    let indent = &line[..line.len() - trimmed.len()];
    // Lines of one version only: `- old`, `+ new` (churns, changed statements).
    if !indent.is_empty() {
        if trimmed.starts_with("- ") {
            return format!("{indent}{}", paint(RED, trimmed));
        }
        if trimmed.starts_with("+ ") {
            return format!("{indent}{}", paint(GREEN, trimmed));
        }
        if let Some(rest) = trimmed.strip_prefix("note:") {
            return format!("{indent}{}{}", paint(DIM, "note:"), rest);
        }
        return line.to_string();
    }
    // Change kinds of the diff.
    for (word, code) in [
        ("modified ", YELLOW),
        ("added ", GREEN),
        ("removed ", RED),
        ("renamed ", CYAN),
    ] {
        if let Some(rest) = line.strip_prefix(word) {
            return format!("{}{rest}", paint(code, word));
        }
    }
    if let Some(rest) = line.strip_prefix("note:") {
        return format!("{}{rest}", paint(DIM, "note:"));
    }
    // `name: verdict ...` of the semantic verdicts.
    if let Some((name, rest)) = line.split_once(": ") {
        if !name.contains(' ') {
            for (word, code) in [
                ("equivalent", GREEN),
                ("different", RED),
                ("unknown", YELLOW),
            ] {
                if let Some(after) = rest.strip_prefix(word) {
                    return format!("{name}: {}{after}", paint(code, word));
                }
            }
        }
        // A heading: a few lowercase words and a colon at the start of a line.
        if name.len() < 40
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == ' ' || c == '-')
        {
            return format!("{}: {rest}", paint(BOLD, name));
        }
    }
    if line.ends_with(':') && !line.contains(' ') {
        return paint(BOLD, line);
    }
    line.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_mark_the_words_and_keep_them() {
        let text = "modified  f  (new.c)\nimpact: the statements\nf: different (modified)\ng: equivalent\n    - a <= 1\n    + a <= 2\nplain line\n";
        let coloured = colour(text);
        assert!(coloured.contains(&format!("{YELLOW}modified {RESET}")));
        assert!(coloured.contains(&format!("{BOLD}impact{RESET}: the statements")));
        assert!(coloured.contains(&format!("f: {RED}different{RESET} (modified)")));
        assert!(coloured.contains(&format!("g: {GREEN}equivalent{RESET}")));
        assert!(coloured.contains(&format!("    {RED}- a <= 1{RESET}")));
        assert!(coloured.contains(&format!("    {GREEN}+ a <= 2{RESET}")));
        assert!(coloured.contains("\nplain line\n"));
        // Without the escape sequences, the text is unchanged.
        let mut plain = String::new();
        let mut chars = coloured.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                plain.push(c);
            }
        }
        assert_eq!(plain, text);
    }
}
