//! Bit-precise symbolic execution of the ripple IR on Z3, with path and procedure
//! summaries for two program versions.
//!
//! What it computes: for a function of either version, a *procedure summary* (Trostanetski,
//! Grumberg, Kroening, SAS 2017, section 2.1, Definitions 5-7): a set of *path summaries*
//! `(R, T)` where `R` is the reachability condition of a finite maximal path over the
//! function's visible inputs and `T` the final visible state, plus the input conditions
//! under which non-termination is proved, and whether the exploration was cut (so that the
//! *uncovered part* `not (R_1 or ... or R_n)` may be satisfiable).
//!
//! The algorithm is path-based symbolic execution (section 2.1) made *modular* (section
//! 3): a call uses the callee's current summary as nested if-then-else terms over its
//! path summaries, never inlining. Unexplored callee paths are *abstracted* (section 6.1)
//! by uninterpreted functions: `ITE(U(g1,g2)(args), UF_{g1,g2}(args), UF_{gi}(args))`
//! where `U(g1,g2)` is the current "equal when" condition of the matched pair and
//! `UF_{g1,g2}` is shared by both versions. The caller of this crate (the semantic
//! difference analysis) supplies `U` and asks for demand-driven refinement with
//! [`Engine::explore`] under a precondition (section 6.2).
//!
//! The visible state of a function is its parameters, the whole memory and the I/O
//! history (a token that external calls update), as the paper's visible variables with
//! globals passed as arguments. The final visible state adds the return value and an
//! outcome status (returned, `exit(code)`, trap, abort). Encoding: C on LP64 as GCC
//! compiles it with `-fwrapv` (bit-vectors of the C widths, signedness from the types, x86
//! shift-count masking, division traps as their own outcome), IEEE 754 `float` and
//! `double` in Z3's floating-point theory (values kept as their bits), `sqrt`, `fabs`,
//! `floor` and `ceil` exact, other libm functions uninterpreted over their arguments, other
//! externals uninterpreted over their arguments, the memory and the I/O token.
//!
//! Memory model: one byte array from 64-bit addresses. Globals sit at fixed addresses
//! chosen by key (string literals by content), shared by both versions; each function's
//! memory locals sit in a frame at a fixed address per function key and are restored to
//! their entry contents on return, so that dead frames never show as differences. Pointer
//! parameters are unconstrained symbolic addresses (they may alias anything).
//!
//! Known limits: loops are unwound up to a bound (paths beyond it are the uncovered part,
//! reported, never guessed); non-termination is proved only for loops whose state repeats
//! after one iteration; a recursive function's memory locals share one frame, so a
//! pointer to a local passed down a recursion is not modelled; `long double` is computed
//! as `double`; variadic arguments and `va_*` are havocked; out-of-bounds accesses read
//! and write the flat memory instead of trapping.

mod costly;
mod encode;
mod engine;
mod interval;
pub mod invariant;
pub mod layout;
pub mod order;
pub mod render;
pub mod smt;
pub mod straightline;
pub mod term;

pub use engine::{
    CallSite, Config, Engine, Inputs, Outcome, PathSummary, ProcSummary, Side, Status, NULL_PAGE,
};
pub use layout::Layout;
pub use smt::{Answer, Budget, Smt};
pub use z3;
