//! The test generator of SATISFYREQSDEMAND (002 section 6.3, Fig. 17): when the suite
//! leaves CHAIN or PROP requirements unsatisfied, new tests are drawn from a generator
//! within a budget, and each one that satisfies a requirement no test satisfied yet is
//! kept.
//!
//! The generator mutates the suite's own tests, so that what it draws has the shape
//! the program expects: an argument that is a number gets a neighbouring, a boundary or
//! a scaled value; another argument is replaced by an argument of another test, dropped
//! or repeated; and a quarter of the draws first splice a prefix of one test's
//! arguments with a suffix of another's. A test's input file (`< FILE`) is kept as it is. Drawing is
//! deterministic (SplitMix64 from a seed) and never repeats a test.

use rustc_hash::FxHashSet;

use crate::suite::Test;
use ripple_analyses::effects::SplitMix;

pub struct Generator<'s> {
    seeds: &'s [Test],
    rng: SplitMix,
    seen: FxHashSet<(Vec<String>, Option<std::path::PathBuf>)>,
}

/// Draws that may repeat an earlier test before the generator gives up.
const ATTEMPTS: usize = 256;

impl<'s> Generator<'s> {
    /// A generator over the tests of a suite (at least one).
    pub fn new(seeds: &'s [Test], seed: u64) -> Self {
        Generator {
            seeds,
            rng: SplitMix(seed),
            seen: seeds
                .iter()
                .map(|t| (t.args.clone(), t.stdin.clone()))
                .collect(),
        }
    }

    /// A test not drawn before and not in the suite; `None` when the mutations keep
    /// giving known tests (a suite of tests without arguments, say).
    pub fn draw(&mut self) -> Option<Test> {
        for _ in 0..ATTEMPTS {
            let base = &self.seeds[self.rng.below(self.seeds.len())];
            let mut args = base.args.clone();
            if self.rng.below(4) == 0 {
                self.splice(&mut args);
            }
            for _ in 0..1 + self.rng.below(3) {
                self.mutate(&mut args);
            }
            if self.seen.insert((args.clone(), base.stdin.clone())) {
                let mut text = shlex::try_join(args.iter().map(String::as_str))
                    .unwrap_or_else(|_| args.join(" "));
                if let Some(file) = &base.stdin {
                    let _ = std::fmt::Write::write_fmt(
                        &mut text,
                        format_args!(" < {}", file.display()),
                    );
                }
                return Some(Test {
                    line: 0,
                    text,
                    args,
                    stdin: base.stdin.clone(),
                });
            }
        }
        None
    }

    /// An argument of a random test of the suite.
    fn any_argument(&mut self) -> Option<String> {
        let test = &self.seeds[self.rng.below(self.seeds.len())];
        (!test.args.is_empty()).then(|| test.args[self.rng.below(test.args.len())].clone())
    }

    /// Crossover: a prefix of the arguments followed by a suffix of another test's.
    fn splice(&mut self, args: &mut Vec<String>) {
        let other = &self.seeds[self.rng.below(self.seeds.len())];
        let cut = self.rng.below(args.len() + 1);
        let from = self.rng.below(other.args.len() + 1);
        args.truncate(cut);
        args.extend(other.args[from..].iter().cloned());
    }

    fn mutate(&mut self, args: &mut Vec<String>) {
        if args.is_empty() {
            if let Some(a) = self.any_argument() {
                args.push(a);
            }
            return;
        }
        let i = self.rng.below(args.len());
        if let Ok(v) = args[i].parse::<i64>() {
            args[i] = self.integer(v).to_string();
            return;
        }
        if let Ok(v) = args[i].parse::<f64>() {
            if v.is_finite() {
                args[i] = self.real(v).to_string();
                return;
            }
        }
        match self.rng.below(3) {
            0 => {
                if let Some(a) = self.any_argument() {
                    args[i] = a;
                }
            }
            1 if args.len() > 1 => {
                args.remove(i);
            }
            _ => {
                if let Some(a) = self.any_argument() {
                    args.insert(i, a);
                }
            }
        }
    }

    fn integer(&mut self, v: i64) -> i64 {
        match self.rng.below(10) {
            0 => v.wrapping_add(1),
            1 => v.wrapping_sub(1),
            2 => 0,
            3 => 1,
            4 => -1,
            5 => v.wrapping_mul(2),
            6 => v / 2,
            7 => v.wrapping_neg(),
            8 => self.rng.below(33) as i64 - 16,
            _ => (self.rng.next_u64() >> 33) as i64 - (1 << 30),
        }
    }

    fn real(&mut self, v: f64) -> f64 {
        match self.rng.below(7) {
            0 => v + 0.1,
            1 => v - 0.1,
            2 => 0.0,
            3 => 1.0,
            4 => v * 2.0,
            5 => v / 2.0,
            _ => (self.rng.below(201) as f64 - 100.0) / 10.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(args: &[&str]) -> Test {
        Test {
            line: 1,
            text: args.join(" "),
            args: args.iter().map(|a| a.to_string()).collect(),
            stdin: None,
        }
    }

    #[test]
    fn draws_are_new_deterministic_and_keep_the_shape() {
        let seeds = [test(&["1", "1"]), test(&["5", "2"])];
        let draw = |seed| {
            let mut g = Generator::new(&seeds, seed);
            (0..50)
                .map(|_| g.draw().expect("a new test"))
                .collect::<Vec<_>>()
        };
        let first = draw(1);
        // The same seed gives the same tests; another seed others.
        assert_eq!(
            first.iter().map(|t| &t.text).collect::<Vec<_>>(),
            draw(1).iter().map(|t| &t.text).collect::<Vec<_>>()
        );
        assert_ne!(
            first.iter().map(|t| &t.text).collect::<Vec<_>>(),
            draw(2).iter().map(|t| &t.text).collect::<Vec<_>>()
        );
        // Never a suite test, never twice; numbers stay numbers (splicing may change
        // how many there are, but most draws keep the suite's two).
        let mut seen = FxHashSet::default();
        let two = first.iter().filter(|t| t.args.len() == 2).count();
        assert!(two * 2 > first.len(), "{two} of {}", first.len());
        for t in &first {
            assert!(seen.insert(t.args.clone()), "{} twice", t.text);
            assert!(t.args != ["1", "1"] && t.args != ["5", "2"]);
            assert!(
                t.args.iter().all(|a| a.parse::<i64>().is_ok()),
                "{}",
                t.text
            );
        }
    }

    #[test]
    fn a_suite_without_arguments_runs_dry() {
        let seeds = [test(&[])];
        assert!(Generator::new(&seeds, 1).draw().is_none());
    }
}
