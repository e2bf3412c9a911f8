//! Heap cloning through allocation wrappers: blocks returned by a wrapper are named per
//! call site, so structures allocated through one wrapper stay apart, while everything
//! the wrapper itself does to the block, or with it, still reaches every caller.

mod common;

use std::collections::BTreeSet;

use ripple_dataflow::pointsto::{object_name, AccessKind};
use ripple_dataflow::{PointsTo, PointsToConfig, PointsToMode};
use ripple_ir::Program;

fn andersen(text: &str) -> (Program, PointsTo) {
    let program = common::lower_file("a.c", text, false);
    let config = PointsToConfig {
        mode: Some(PointsToMode::Andersen),
        ..PointsToConfig::default()
    };
    let pts = PointsTo::analyze(&program, &config);
    (program, pts)
}

/// The names of the objects accessed (`kind`) by the nodes on `line`.
fn touched(program: &Program, pts: &PointsTo, line: u32, kind: AccessKind) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (f, function) in program.functions.iter_enumerated() {
        for (n, node) in function.nodes.iter_enumerated() {
            if node.span.start_line != line {
                continue;
            }
            for access in pts.accesses(f, n).iter().filter(|a| a.kind == kind) {
                for &object in &pts.part_objects[access.part.index()] {
                    names.insert(object_name(program, object));
                }
            }
        }
    }
    names
}

const PRELUDE: &str = "void *malloc(unsigned long);\n\
void *realloc(void *, unsigned long);\n\
void abort(void);\n";

#[test]
fn two_structures_allocated_through_one_wrapper_stay_apart() {
    // `a` and `b` come from the same malloc in xmalloc; cloned per call site of
    // xmalloc (lines 12 and 13), `b->y` holds only &g2, so line 16 reads g2 and not g1.
    let text = format!(
        "{PRELUDE}void *xmalloc(unsigned long n) {{\n\
         void *p = malloc(n);\n\
         if (!p) abort();\n\
         return p;\n\
         }}\n\
         struct A {{ int *x; }}; struct B {{ int *y; }};\n\
         int g1, g2;\n\
         int main(void) {{\n\
         struct A *a = xmalloc(sizeof *a);\n\
         struct B *b = xmalloc(sizeof *b);\n\
         a->x = &g1;\n\
         b->y = &g2;\n\
         return *b->y;\n\
         }}\n"
    );
    let (program, pts) = andersen(&text);
    let read = touched(&program, &pts, 16, AccessKind::Read);
    assert!(read.contains("g2"), "{read:?}");
    assert!(!read.contains("g1"), "{read:?}");
    // The two stores write different objects, both named by xmalloc's call sites.
    let a = touched(&program, &pts, 14, AccessKind::Write);
    let b = touched(&program, &pts, 15, AccessKind::Write);
    assert_eq!(a.len(), 1, "{a:?}");
    assert!(a.is_disjoint(&b), "{a:?} {b:?}");
    assert!(
        a.iter().next().unwrap().contains("by xmalloc at a.c:12"),
        "{a:?}"
    );
}

#[test]
fn nested_wrappers_and_allocators_called_through_pointers_are_cloned() {
    // my_alloc is reached through a function pointer (as Lua's frealloc): every
    // address-taken function of its type that returns a pointer is a wrapper, so the
    // call in mem_new is a wrapper call; obj_new wraps mem_new. The blocks of lines 15
    // and 16 stay apart: line 19 reads g1 only.
    let text = format!(
        "{PRELUDE}typedef void *(*alloc_fn)(void *ud, void *ptr, unsigned long n);\n\
         static void *my_alloc(void *ud, void *ptr, unsigned long n) {{ return realloc(ptr, n); }}\n\
         struct state {{ alloc_fn f; void *ud; }} S = {{ my_alloc, 0 }};\n\
         void *mem_new(unsigned long n) {{ return S.f(S.ud, 0, n); }}\n\
         void *obj_new(unsigned long n) {{\n\
         char *p = mem_new(n);\n\
         if (!p) abort();\n\
         return p;\n\
         }}\n\
         int g1, g2;\n\
         int main(void) {{\n\
         int **a = obj_new(8);\n\
         int **b = obj_new(8);\n\
         *a = &g1;\n\
         *b = &g2;\n\
         return **a;\n\
         }}\n"
    );
    let (program, pts) = andersen(&text);
    let read = touched(&program, &pts, 19, AccessKind::Read);
    assert!(read.contains("g1"), "{read:?}");
    assert!(!read.contains("g2"), "{read:?}");
}

#[test]
fn what_a_wrapper_stores_into_its_block_reaches_every_caller() {
    // mk stores its argument into the block: inside mk the block is any of the clones,
    // so the store reaches both (a weak update). Line 13 must read g1 (sound); g2 too,
    // as the price of one analysis of mk for both calls.
    let text = format!(
        "{PRELUDE}struct node {{ int *v; }};\n\
         struct node *mk(int *v) {{\n\
         struct node *n = malloc(sizeof *n);\n\
         n->v = v;\n\
         return n;\n\
         }}\n\
         int g1, g2;\n\
         int main(void) {{\n\
         struct node *a = mk(&g1); struct node *b = mk(&g2);\n\
         return *a->v + *b->v;\n\
         }}\n"
    );
    let (program, pts) = andersen(&text);
    let read = touched(&program, &pts, 13, AccessKind::Read);
    assert!(read.contains("g1") && read.contains("g2"), "{read:?}");
}

#[test]
fn a_function_returning_a_cached_block_is_no_wrapper() {
    // get returns the block of an earlier call (loaded from `cache`): both callers get
    // the same block, so the write through `a` (line 11) and the read through `b`
    // (line 12) must touch the same object.
    let text = format!(
        "{PRELUDE}static char *cache;\n\
         char *get(void) {{\n\
         if (!cache) cache = malloc(8);\n\
         return cache;\n\
         }}\n\
         int main(void) {{\n\
         char *a = get(); char *b = get();\n\
         *a = 1;\n\
         return *b;\n\
         }}\n"
    );
    let (program, pts) = andersen(&text);
    let write = touched(&program, &pts, 11, AccessKind::Write);
    let read = touched(&program, &pts, 12, AccessKind::Read);
    assert!(!write.is_empty());
    assert!(!write.is_disjoint(&read), "{write:?} {read:?}");
}

#[test]
fn a_reallocating_wrapper_keeps_the_contents_of_the_old_block() {
    // grow2 -> grow -> realloc: the new block holds what the old one held (&g1), so
    // line 16 reads g1. The copy is made at main's call, where the old block is known,
    // and not into every clone: the block of line 14 never held &g2.
    let text = format!(
        "{PRELUDE}void *grow(void *p, unsigned long n) {{\n\
         void *q = realloc(p, n);\n\
         if (!q) abort();\n\
         return q;\n\
         }}\n\
         void *grow2(void *p, unsigned long n) {{ return grow(p, n); }}\n\
         int g1, g2;\n\
         int main(void) {{\n\
         int **arr = malloc(8); int **other = malloc(8);\n\
         arr[0] = &g1; other[0] = &g2;\n\
         arr = grow2(arr, 16);\n\
         other = grow2(other, 16);\n\
         return *arr[0];\n\
         }}\n"
    );
    let (program, pts) = andersen(&text);
    let read = touched(&program, &pts, 16, AccessKind::Read);
    assert!(read.contains("g1"), "{read:?}");
    assert!(!read.contains("g2"), "{read:?}");
}

#[test]
fn a_wrapper_returning_past_a_header_keeps_fields_and_header_apart() {
    // hmalloc returns the block past an 8-byte header it writes (as sqlite3MemMalloc).
    // The callers' fields are at offset 8 and 16 of the block; the header read at
    // line 16 (p[-1]) reaches the object the wrapper writes at line 7, and the two
    // fields of lines 13 and 14 stay distinct cells (line 15 reads g2 only). `f` stores
    // &g1 in the `y` of another block from hmalloc, which `a` never points to.
    let text = format!(
        "{PRELUDE}struct P {{ int *x; int *y; }};\n\
         void *hmalloc(unsigned long n) {{\n\
         long *p = malloc(n + 8);\n\
         p[0] = (long)n;\n\
         return p + 1;\n\
         }}\n\
         int g1, g2; int f(struct P *q) {{ q->y = &g1; return 0; }}\n\
         int main(void) {{\n\
         struct P *a = hmalloc(sizeof *a);\n\
         a->x = &g1;\n\
         a->y = &g2;\n\
         int r = *a->y;\n\
         return r + (int)((long *)a)[-1] + f(hmalloc(sizeof *a));\n\
         }}\n"
    );
    let (program, pts) = andersen(&text);
    let header = touched(&program, &pts, 7, AccessKind::Write);
    let size = touched(&program, &pts, 16, AccessKind::Read);
    assert!(!header.is_disjoint(&size), "{header:?} {size:?}");
    let read = touched(&program, &pts, 15, AccessKind::Read);
    assert!(read.contains("g2"), "{read:?}");
    assert!(!read.contains("g1"), "{read:?}");
}
