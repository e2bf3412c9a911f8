//! Headers the frontend reads in place of the compiler's own: `<stdatomic.h>`, whose GCC
//! version is made of statement expressions, `__auto_type` and `__typeof__` of
//! expressions, which the parser cannot read. Ours (`include/stdatomic.h`) maps every
//! generic function to the `__atomic` builtin it stands for. The preprocessors write
//! them to a directory they search before the system's (`-isystem`).

/// The headers, by file name.
pub const HEADERS: [(&str, &str); 1] = [("stdatomic.h", include_str!("../include/stdatomic.h"))];
