//! SDG and slicing checks on small C programs.

use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
use ripple_dataflow::slice::{slice, SliceDirection};
use ripple_dataflow::{Sdg, SdgConfig, VertexKind};
use ripple_ir::Program;

fn lower(text: &str) -> Program {
    let unit = TranslationUnit {
        path: "a.c".to_string(),
        text: text.to_string(),
        line_map: None,
    };
    lower_units(
        &[unit],
        &FrontendConfig {
            build_syntax: false,
        },
    )
    .program
}

/// The source lines of the node vertices in a slice from the first node on `line`.
fn slice_lines(program: &Program, line: u32, direction: SliceDirection) -> Vec<u32> {
    let sdg = Sdg::build(program, &SdgConfig::default());
    let criteria: Vec<_> = (0..sdg.vertex_count())
        .map(|v| ripple_dataflow::VertexId(v as u32))
        .filter(|&v| {
            matches!(sdg.kinds[v.index()], VertexKind::Node(_))
                && sdg.span(program, v).start_line == line
        })
        .collect();
    let result = slice(&sdg, &criteria, direction);
    let mut lines: Vec<u32> = result
        .vertices()
        .into_iter()
        .filter(|v| matches!(sdg.kinds[v.index()], VertexKind::Node(_)))
        .map(|v| sdg.span(program, v).start_line)
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

const CONTEXT: &str = "int id(int x) {\n\
    return x;\n\
}\n\
int g;\n\
int main(void) {\n\
    int a = 1;\n\
    int b = 2;\n\
    int p = id(a);\n\
    int q = id(b);\n\
    g = q;\n\
    if (p > 0)\n\
        g = 3;\n\
    return g;\n\
}\n";

#[test]
fn forward_slice_is_context_sensitive() {
    let program = lower(CONTEXT);
    let lines = slice_lines(&program, 6, SliceDirection::Forward);
    // a flows into p (through id) and controls line 12, but not into q (line 9, 10).
    assert!(lines.contains(&8), "{lines:?}");
    assert!(lines.contains(&2), "{lines:?}");
    assert!(lines.contains(&11), "{lines:?}");
    assert!(lines.contains(&12), "{lines:?}");
    assert!(!lines.contains(&9), "{lines:?}");
    assert!(!lines.contains(&10), "{lines:?}");
}

#[test]
fn backward_slice_is_context_sensitive() {
    let program = lower(CONTEXT);
    let lines = slice_lines(&program, 10, SliceDirection::Backward);
    assert!(lines.contains(&7), "{lines:?}");
    assert!(lines.contains(&9), "{lines:?}");
    assert!(lines.contains(&2), "{lines:?}");
    assert!(!lines.contains(&6), "{lines:?}");
}
