//! The summary cache's proofs: function pairs proved equivalent, stored under the
//! fingerprints of both functions with everything they depend on
//! (`ripple_analyses::fingerprint`), so that a later run whose pair has the same
//! fingerprints (the next commit of a branch against the same base, another command on
//! the same change, a caller tried again) takes the proof instead of searching for it,
//! when asked to (`--reuse-proofs`: the budget a proof taken leaves goes to the other
//! verdicts, so the report may differ from one without it). Only proofs are stored:
//! what a budget left undecided is tried again.

use ripple_analyses::fingerprint::{pair, Fingerprints};
use ripple_ir::{FuncId, Program};

use crate::cache::{Cache, Key, KeyBuilder};

/// What the cache holds for a pair proved equivalent.
const PROVED: &[u8] = b"equivalent";

/// The proofs of one pair of versions.
pub struct ProvedPairs<'a> {
    cache: &'a Cache,
    programs: [&'a Program; 2],
    /// Both versions' fingerprints, made when a first key is needed.
    prints: std::cell::OnceCell<[Fingerprints<'a>; 2]>,
    /// Proved modulo undefined behaviour (`--assume no-ub`), a weaker claim.
    no_ub: bool,
}

impl<'a> ProvedPairs<'a> {
    pub fn new(cache: &'a Cache, old: &'a Program, new: &'a Program, no_ub: bool) -> Self {
        ProvedPairs {
            cache,
            programs: [old, new],
            prints: std::cell::OnceCell::new(),
            no_ub,
        }
    }

    fn key(&self, o: FuncId, n: FuncId) -> Key {
        let [old, new] = self
            .prints
            .get_or_init(|| self.programs.map(Fingerprints::new));
        KeyBuilder::new("function pair proved equivalent")
            .bytes(&pair(old, new, o, n).to_le_bytes())
            .number(u64::from(self.no_ub))
            .finish()
    }

    /// Whether an earlier run proved the pair equivalent, when proofs are taken.
    pub fn known(&self, o: FuncId, n: FuncId) -> bool {
        self.cache.reuses_proofs()
            && self
                .cache
                .get(&self.key(o, n))
                .is_some_and(|stored| stored == PROVED)
    }

    /// Records that the pair is proved equivalent.
    pub fn store(&self, o: FuncId, n: FuncId) {
        self.cache.put(&self.key(o, n), PROVED);
    }
}
