//! Interactions among changes (002 chapter 7, SCHID): the worked example of the thesis
//! (Fig. 4, section 7.2, Table 22; examples/change-effects-fig4) and the programs of
//! tests/interactions, whose expected verdicts are reasoned in comments.

use std::path::{Path, PathBuf};

use ripple_analyses::effects::changes::VariantFile;
use ripple_analyses::effects::{ChangeSet, FilePair};
use ripple_analyses::interactions::{
    find_interactions, group, Grouping, Interactions, Limits, PairVerdict, StmtKey, TestVerdict,
};
use ripple_c::{lower_units, FrontendConfig, TranslationUnit};
use ripple_interp::RunConfig;
use ripple_ir::Program;
use ripple_versions::{match_programs, MatchConfig};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// Preprocesses (`cc -E`, in a scratch directory holding the files) and lowers.
fn lower_text(files: &[(String, String)]) -> Result<Program, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut units = Vec::new();
    for (path, text) in files {
        std::fs::write(dir.path().join(path), text).map_err(|e| e.to_string())?;
    }
    for (path, _) in files {
        let out = std::process::Command::new("cc")
            .args(["-E", path])
            .current_dir(dir.path())
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned());
        }
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        units.push(TranslationUnit::preprocessed(
            path.clone(),
            &text,
            str::to_string,
        ));
    }
    let lowered = lower_units(&units, &FrontendConfig::default());
    match lowered
        .diagnostics
        .iter()
        .find(|d| d.severity == ripple_c::Severity::Error)
    {
        Some(d) => Err(format!("{d:?}")),
        None => Ok(lowered.program),
    }
}

fn lower_variant(files: &[VariantFile]) -> Result<Program, String> {
    let pairs: Vec<(String, String)> = files
        .iter()
        .map(|f| (f.path.clone(), f.text.clone()))
        .collect();
    lower_text(&pairs)
}

/// Runs SCHID on `dir`'s old.c and new.c, each change its own set, on `inputs`
/// (argument lists).
fn analyse(dir: &str, inputs: &[&str]) -> Interactions {
    let read = |f: &str| std::fs::read_to_string(repo(dir).join(f)).expect("example");
    let (old_text, new_text) = (read("old.c"), read("new.c"));
    let old = lower_text(&[("old.c".into(), old_text.clone())]).expect("old");
    let new = lower_text(&[("new.c".into(), new_text.clone())]).expect("new");
    let matching = match_programs(&old, &new, &MatchConfig::default());
    let files = vec![FilePair {
        old_path: Some("old.c".into()),
        new_path: Some("new.c".into()),
        old_text,
        new_text,
    }];
    let set = ChangeSet::build(&old, &new, &matching, files);
    let groups = group(&set, &Grouping::Change);
    let tests: Vec<RunConfig> = inputs
        .iter()
        .map(|i| RunConfig {
            args: i.split_whitespace().map(str::to_string).collect(),
            ..RunConfig::default()
        })
        .collect();
    find_interactions(
        &old,
        &new,
        &set,
        groups,
        &lower_variant,
        &tests,
        &Limits::default(),
    )
    .expect("analysis")
}

fn pair<'a>(
    r: &'a Interactions,
    a: &str,
    b: &str,
) -> &'a ripple_analyses::interactions::PairResult {
    let index = |name: &str| r.groups.iter().position(|g| g.name == name).expect(name);
    let (i, j) = (index(a), index(b));
    r.pairs
        .iter()
        .find(|p| p.sets == (i.min(j), i.max(j)))
        .expect("pair")
}

#[test]
fn fig4_interactions_as_in_section_7_2() {
    // The inputs of section 7.2: the thesis input; all m[i] <= 0 (ch2 does not run);
    // m = [3,-1,-1,-1] (ch2 runs, but `a` printed by ch4 comes from statement 5); and
    // n = 1, where ch1 leaves the printed `r > -10` (and `r > 0`) at 1.
    let inputs = [
        "5 1 -1 0 3",
        "5 0 -1 0 0",
        "5 3 -1 -1 -1",
        "1 1 -1 0 3",
        "5 -1 -1 -1 -1",
    ];
    let r = analyse("examples/change-effects-fig4", &inputs);
    let names: Vec<&str> = r.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, ["ch1", "ch2", "ch3", "ch4"]);
    // Every statement of every variant is one of the old or new version's.
    assert!(r
        .keys
        .keys
        .iter()
        .all(|k| !matches!(k, StmtKey::Variant(..))));
    // P', the four P'\Ci and the six P'\{Ci,Cj} are built. Table 22's static slices
    // in prog' are ch1 {1,6,7}, ch2 {4,6,7,8}, ch3 {7}, ch4 {8}: {ch1,ch4} and
    // {ch3,ch4} meet in no variant (check 1), so their own variants are not run: 9
    // variants run on each of the 5 inputs.
    assert_eq!(r.variants.len(), 11);
    assert_eq!(r.runs, 9 * inputs.len());
    assert_eq!(
        pair(&r, "ch1", "ch4").verdict(),
        PairVerdict::StaticSlicesApart
    );

    // ch1 and ch2 interact on the thesis input: the r reaching statement 7 is 18 in
    // prog' and 16 with only ch1 applied; each alters the other's effect on r. Both
    // have an effect on P' (r differs without either), so Type I.
    let p12 = pair(&r, "ch1", "ch2");
    assert_eq!(p12.verdict(), PairVerdict::Interacts);
    match &p12.tests[0].verdict {
        TestVerdict::Interacts(i) => {
            assert!(i.type_one, "{i:?}");
            assert_eq!(i.altered, [true, true]);
            assert!(i.slices_met);
        }
        v => panic!("thesis input: {v:?}"),
    }
    // m = [0,-1,0,0]: ch2 does not run, so it interacts with nothing (check 2).
    assert_eq!(p12.tests[1].verdict, TestVerdict::NotRun);
    assert_eq!(pair(&r, "ch2", "ch3").tests[4].verdict, TestVerdict::NotRun);

    // ch1 and ch3 for n = 1: slices meet at statement 7, but it prints 1 with and
    // without either change, so no interaction.
    let p13 = pair(&r, "ch1", "ch3");
    assert!(p13.static_meet);
    assert_eq!(p13.tests[3].verdict, TestVerdict::NoInteraction);
    assert!(p13.tests[3].slices_meet);

    // {ch3} and {ch4}: the printed comparison and the printed `a` share no dependence in
    // any variant (Table 22: slices {7} and {8}): pruned by check 1, never run.
    let p34 = pair(&r, "ch3", "ch4");
    assert_eq!(p34.verdict(), PairVerdict::StaticSlicesApart);
    assert!(p34.tests.is_empty());

    // {ch2} and {ch4} on n = 5, m = [3,-1,-1,-1]: both run (check 2 passes) but the
    // dynamic slices do not meet (check 3): the printed `a` is statement 5's.
    let p24 = pair(&r, "ch2", "ch4");
    assert!(p24.static_meet);
    assert!(p24.tests[2].covered_together);
    assert_eq!(p24.tests[2].verdict, TestVerdict::SlicesApart);
    // On the thesis input the last m is 3, so statement 8 prints ch2's `a`: 5 in prog',
    // 4 without ch2; without ch4 nothing is printed. ch4's effect (printing `a`) differs
    // with and without ch2, so they interact.
    assert!(matches!(p24.tests[0].verdict, TestVerdict::Interacts(_)));
}

/// ch1 replaces `a = x` by `a = helper(x) - 1`: the same value, but `helper` takes the
/// address of its local, so its frame gets a block of memory and every block allocated
/// later (the `malloc` of `buf`) has another number in the interpreter. ch2 changes `b`,
/// stored in `buf[1]`. ch1 has no effect on any value or printed line, so the two cannot
/// interact; an analysis naming memory by block number would see ch1 move `buf` and
/// ch2's store differ with and without it. The lowered variants also number their
/// registers differently (ch1 adds a temporary), which must not matter either.
#[test]
fn allocation_order_and_register_numbering_are_not_effects() {
    let r = analyse(
        "crates/ripple-analyses/tests/interactions/allocation-shift",
        &["5", "7"],
    );
    let p = pair(&r, "ch1", "ch2");
    assert!(p.static_meet);
    for t in &p.tests {
        assert!(t.covered_together);
        assert_eq!(t.verdict, TestVerdict::NoInteraction);
    }
}

/// A program that writes its results to a file and prints only "written". ch1 (`a`)
/// and ch2 (`b`) each change one line of the file; ch3 makes the third line `b + 1`
/// when x <= 3. On "2 1" (x <= 3) ch3's effect is the third line's value, y + 3
/// against y + 2 with ch2 and y + 2 against y + 1 without it: ch2 and ch3 interact,
/// through the file only (each has an effect on P'). On "5 1" the third line is `a`,
/// so ch3 has no effect and nothing interacts. ch1 never alters another's effect: its
/// lines are its own. Comparing the whole file at the end would make every pair whose
/// changes both reach the file interact; the writes are compared where they are made.
#[test]
fn file_writes_are_effects_where_they_are_made() {
    let r = analyse(
        "crates/ripple-analyses/tests/interactions/file-output",
        &["2 1", "5 1"],
    );
    let interacts = |a, b, t: usize| matches!(&pair(&r, a, b).tests[t].verdict, TestVerdict::Interacts(i) if i.type_one);
    assert!(interacts("ch2", "ch3", 0));
    assert!(!interacts("ch2", "ch3", 1));
    for t in 0..2 {
        assert!(!interacts("ch1", "ch2", t));
        assert!(!interacts("ch1", "ch3", t));
    }
}
