//! The statement-level impact report as SARIF 2.1.0 (OASIS Static Analysis Results
//! Interchange Format), for code-scanning and review tools.
//!
//! One result per changed hunk (consecutive changed lines of one file and version),
//! placed at the hunk so that tools showing only the lines of a diff still show it:
//! rule `RPL001` when the change impacts other lines (message: how many, in which
//! functions, nearest first), with each impacted line as a related location and, per
//! impacted function, its shortest dependence chain as a code flow from the change to
//! the line; `RPL002` for a change proved equivalent (no source of impact). With the
//! semantic verdicts of `ripple diff`, a changed function proved equivalent as a whole
//! is an `RPL002` too, and one that behaves differently is `RPL003`, its message giving
//! the witness input and both outcomes. Where the analysis over-approximated is said in
//! the run's tool notifications.
//!
//! Locations are relative to the version's root (`uriBaseId` `NEWROOT` for the new
//! version, `OLDROOT` for the old one). `partialFingerprints` hash the rule, version, file
//! and the hunk's lines, so two runs give the same fingerprints.
//!
//! The commands on one program write the same log with `SRCROOT` locations: `ripple
//! slice` one `RPL004` result at the slicing criterion, the slice's lines as related
//! locations; `ripple sea` one `RPL005` result per function at its definition, the
//! functions that may execute after (or before) it as related locations.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::diff::DiffView;
use crate::impact_lines::{ImpactLinesView, ImpactedLineView, LineView};
use crate::report::Report;
use crate::semdiff::{SemdiffView, WitnessView};

/// Related locations listed per result at most (the message gives the full count).
const MAX_RELATED: usize = 100;

/// Code flows per result at most: those of the nearest impacted functions (the run's
/// properties say so; the result's count them all).
const MAX_CODE_FLOWS: usize = 10;

/// The `uriBaseId` of a version (`program` for the one program of `slice` and `sea`).
fn base(version: &str) -> &'static str {
    match version {
        "old" => "OLDROOT",
        "program" => "SRCROOT",
        _ => "NEWROOT",
    }
}

/// The `originalUriBaseIds` of a log over two versions.
fn version_bases(old: &str, new: &str) -> Value {
    json!({
        "OLDROOT": { "description": { "text": format!("the old version: {old}") } },
        "NEWROOT": { "description": { "text": format!("the new version: {new}") } }
    })
}

fn location(version: &str, file: &str, start: u32, end: u32, message: Option<&str>) -> Value {
    let mut loc = json!({
        "physicalLocation": {
            "artifactLocation": { "uri": file, "uriBaseId": base(version) },
            "region": { "startLine": start.max(1), "endLine": end.max(start).max(1) }
        }
    });
    if let Some(text) = message {
        loc["message"] = json!({ "text": text });
    }
    loc
}

/// FNV-1a, 64 bits: a fingerprint that does not depend on the platform or the run.
fn fingerprint(parts: &[&str]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain([0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// A run of consecutive changed lines of one file of one version.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Hunk {
    version: &'static str,
    file: String,
    start: u32,
    end: u32,
}

fn hunks(changed: &[LineView]) -> Vec<Hunk> {
    let mut out: Vec<Hunk> = Vec::new();
    for l in changed {
        match out.last_mut() {
            Some(h) if h.version == l.version && h.file == l.file && l.line <= h.end + 1 => {
                h.end = h.end.max(l.line);
            }
            _ => out.push(Hunk {
                version: l.version,
                file: l.file.clone(),
                start: l.line,
                end: l.line,
            }),
        }
    }
    out
}

/// `FILE:LINE` at the start of a chain step.
fn step_line(step: &str) -> Option<(&str, u32)> {
    let head = step.split_whitespace().next()?;
    let (file, line) = head.rsplit_once(':')?;
    Some((file, line.parse().ok()?))
}

/// The hunk an impacted line's chain starts from (its last step names the change).
fn origin<'h>(
    hunks: &'h [Hunk],
    view: &ImpactLinesView,
    line: &ImpactedLineView,
) -> Option<&'h Hunk> {
    let (file, at) = step_line(view.chain_origin(line)?)?;
    hunks
        .iter()
        .find(|h| h.version == line.version && h.file == file && (h.start..=h.end).contains(&at))
}

/// The chain as a thread flow from the change to the impacted line: the steps that name
/// a line become locations; the others are said in the next location's message.
fn code_flow(view: &ImpactLinesView, line: &ImpactedLineView) -> Value {
    let mut locations = Vec::new();
    let mut pending: Vec<&str> = Vec::new();
    let chain = view.chain(line);
    for step in chain.iter().rev() {
        match step_line(step) {
            Some((file, at)) => {
                pending.push(step);
                let text = pending.join(" -> ");
                locations
                    .push(json!({ "location": location(line.version, file, at, at, Some(&text)) }));
                pending.clear();
            }
            None => pending.push(step),
        }
    }
    json!({
        "message": { "text": format!("how {}:{} in {} is impacted (distance {})", line.file, line.line, line.function, line.distance) },
        "threadFlows": [{ "locations": locations }]
    })
}

fn rules() -> Value {
    json!([
        {
            "id": "RPL001",
            "name": "ChangeImpact",
            "shortDescription": { "text": "A change impacts other statements" },
            "fullDescription": { "text": "The changed statements may alter what other statements compute or whether they run, through data and control dependences (DCIA), unless proved to do what the old ones did (SEM-DCIA). Related locations are the impacted lines; code flows are their shortest dependence chains." },
            "defaultConfiguration": { "level": "note" },
            "properties": { "tags": ["change-impact"] }
        },
        {
            "id": "RPL002",
            "name": "ChangeProvedEquivalent",
            "shortDescription": { "text": "A change is proved to do what the old code did" },
            "fullDescription": { "text": "The solver proved the changed statements equivalent to the ones they replace (same exits, state, calls and stops), or the changed function equivalent as a whole: the change is no source of impact." },
            "defaultConfiguration": { "level": "note" },
            "properties": { "tags": ["change-impact", "equivalence"] }
        },
        {
            "id": "RPL003",
            "name": "FunctionBehaviourChanged",
            "shortDescription": { "text": "A changed function behaves differently on some input" },
            "fullDescription": { "text": "The semantic difference engine found inputs on which the old and new versions of the function return, write or print something else, or end otherwise; the message gives a witness input and both outcomes, and whether the compiled versions or the interpreter confirmed it." },
            "defaultConfiguration": { "level": "note" },
            "properties": { "tags": ["change-impact", "semantic-difference"] }
        },
        {
            "id": "RPL004",
            "name": "ProgramSlice",
            "shortDescription": { "text": "The statements a slicing criterion depends on, or that depend on it" },
            "fullDescription": { "text": "An interprocedural slice over the system dependence graph (two-phase, Horwitz, Reps and Binkley): backward, the statements that may affect the criterion; forward, those it may affect. Related locations are the slice's lines." },
            "defaultConfiguration": { "level": "note" },
            "properties": { "tags": ["slice"] }
        },
        {
            "id": "RPL005",
            "name": "StaticExecuteAfter",
            "shortDescription": { "text": "The functions that may execute after (or before) a function" },
            "fullDescription": { "text": "Static Execute After (or Before) over the interprocedural control flow graph: the functions some run may execute after the function starts (or before it returns), the function-level impact set of a change to it. Related locations are their definitions." },
            "defaultConfiguration": { "level": "note" },
            "properties": { "tags": ["change-impact", "function-level"] }
        },
        {
            "id": "RPL006",
            "name": "ChangedFileNotAnalysed",
            "shortDescription": { "text": "A changed file the program analysed does not read" },
            "fullDescription": { "text": "The file changed, but the program analysed (one of several in the tree, or the build's configuration) does not read it, or does not compile the changed lines (a branch of #if its configuration does not take): the change is not analysed. The message names the functions whose code changed in it, or the lines." },
            "defaultConfiguration": { "level": "warning" },
            "properties": { "tags": ["change-impact"] }
        }
    ])
}

/// The SARIF log of `ripple diff`: the impact, and the semantic verdicts of the changed
/// functions placed at their first changed line (equivalent: `RPL002`; different:
/// `RPL003`, with the witness).
pub fn render_report(impact: Option<&ImpactLinesView>, report: &Report, version: &str) -> String {
    // Without an impact section (nothing of the program analysed changed), the log holds
    // the other results alone.
    let mut log: Value = match impact {
        Some(impact) => serde_json::from_str(&render(impact, version)).unwrap_or(Value::Null),
        None => sarif_log(
            version,
            version_bases(&report.changes.old, &report.changes.new),
            Vec::new(),
            Vec::new(),
        ),
    };
    // Code that could not be read: the run did not analyse all of the versions.
    let errors = &report.changes.read_errors;
    if !errors.is_empty() {
        let invocation = &mut log["runs"][0]["invocations"][0];
        invocation["executionSuccessful"] = json!(false);
        if let Some(list) = invocation["toolExecutionNotifications"].as_array_mut() {
            list.insert(
                0,
                json!({ "level": "error", "message": { "text": errors.text() } }),
            );
        }
    }
    let mut results = not_analysed_results(&report.changes.files_not_analysed);
    if let Some(semantic) = &report.semantic {
        results.extend(verdict_results(semantic, &report.changes));
    }
    if let Some(list) = log["runs"][0]["results"].as_array_mut() {
        list.extend(results);
    }
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

/// One `RPL006` warning per changed file (or changed lines of one) the analysis left out.
fn not_analysed_results(files: &[crate::diff::FileNotAnalysedView]) -> Vec<Value> {
    files
        .iter()
        .map(|f| {
            json!({
                "ruleId": "RPL006",
                "ruleIndex": 5,
                "level": "warning",
                "message": { "text": crate::diff::not_analysed_text(f) },
                "locations": [location(if f.new_lines.is_empty() && f.lines_only() { "old" } else { "new" }, &f.file, f.first_line(), f.first_line(), None)],
                "partialFingerprints": { "rippleNotAnalysed/v1": fingerprint(&["RPL006", &f.file]) }
            })
        })
        .collect()
}

/// The SARIF log of `ripple semdiff`: the verdicts of the changed functions alone.
pub fn render_verdicts(semantic: &SemdiffView, changes: &DiffView, version: &str) -> String {
    let log = sarif_log(
        version,
        version_bases(&changes.old, &changes.new),
        Vec::new(),
        not_analysed_results(&semantic.not_analysed)
            .into_iter()
            .chain(verdict_results(semantic, changes))
            .collect(),
    );
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

/// One result per changed function with a decided verdict, at its first changed line,
/// and, when none of them is shown to differ, one per unchanged caller that behaves
/// differently (the change seen where it shows), at the first changed line of the change.
fn verdict_results(semantic: &SemdiffView, changes: &DiffView) -> Vec<Value> {
    let mut results = Vec::new();
    let first_changed = changes
        .functions
        .iter()
        .find(|c| !c.new_lines.is_empty() || !c.old_lines.is_empty());
    let callers = semantic.differing_callers();
    for f in semantic
        .functions
        .iter()
        .filter(|f| f.modified || callers.iter().any(|c| std::ptr::eq(*c, *f)))
    {
        let own = changes
            .functions
            .iter()
            .find(|c| c.name == f.name && f.modified);
        let Some(changed) = own.or(first_changed) else {
            continue;
        };
        let (vers, file, line) = match (changed.new_lines.first(), changed.old_lines.first()) {
            (Some(&l), _) => ("new", &changed.file, l),
            (None, Some(&l)) => ("old", changed.old_file.as_ref().unwrap_or(&changed.file), l),
            (None, None) => ("new", &changed.file, 1),
        };
        let caller = if f.modified {
            String::new()
        } else {
            " (unchanged: the change reaches it)".to_string()
        };
        let (rule, index, text) = match f.verdict {
            "equivalent" => (
                "RPL002",
                1,
                format!(
                    "Proved equivalent (semantic difference): {} as a whole, from the same inputs, returns, writes and prints what the old version did.",
                    f.name
                ),
            ),
            "different" => {
                let witness = f
                    .witnesses
                    .iter()
                    .find(|w| w.confirmed)
                    .or(f.witnesses.first());
                (
                    "RPL003",
                    2,
                    match witness {
                        Some(w) => format!(
                            "{}{} behaves differently: {}",
                            f.name,
                            caller,
                            witness_text(w)
                        ),
                        None => format!(
                            "{}{} behaves differently: the solver proves an input on which the versions differ.",
                            f.name, caller
                        ),
                    },
                )
            }
            _ => continue,
        };
        results.push(json!({
            "ruleId": rule,
            "ruleIndex": index,
            "level": "note",
            "message": { "text": text },
            "locations": [location(vers, file, line, line, None)],
            "partialFingerprints": { "rippleVerdict/v1": fingerprint(&[rule, vers, file, &f.name]) }
        }));
    }
    results
}

/// A witness in words: the input, both outcomes, what confirmed it, and the undefined
/// behaviour it goes through.
fn witness_text(w: &WitnessView) -> String {
    let inputs: Vec<String> = w
        .ordered_inputs()
        .into_iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    let confirmed = if w.confirmed {
        format!("confirmed by the {}", w.checked_by)
    } else {
        format!(
            "not confirmed: {}",
            w.unconfirmed_reason.unwrap_or("the runs agree")
        )
    };
    let (old, new) = w.first_difference();
    format!(
        "on {}: old {old}; new {new} ({confirmed}{}).",
        if inputs.is_empty() {
            "no input".to_string()
        } else {
            inputs.join(", ")
        },
        w.through_text()
    )
}

/// The SARIF log of a statement-level impact report; `version` is ripple's.
pub fn render(view: &ImpactLinesView, version: &str) -> String {
    let hunks = hunks(&view.changed_lines);
    let mut by_hunk: BTreeMap<&Hunk, Vec<&ImpactedLineView>> = BTreeMap::new();
    for line in &view.impacted_lines {
        // Impact whose chain starts elsewhere (a changed global's initial value, say)
        // goes with the first hunk of its version: one result per hunk, each with its
        // own fingerprint.
        // A version with no changed line of its own (code only deleted) has its lines
        // with the other's first hunk.
        let hunk = origin(&hunks, view, line)
            .or_else(|| hunks.iter().find(|h| h.version == line.version))
            .or_else(|| hunks.first());
        if let Some(h) = hunk {
            by_hunk.entry(h).or_default().push(line);
        }
    }
    let mut results = Vec::new();
    for hunk in &hunks {
        let lines = by_hunk.remove(hunk).unwrap_or_default();
        if lines.is_empty() {
            continue;
        }
        results.push(impact_result(view, hunk, &lines));
    }
    for e in &view.equivalences {
        let (vers, file, lines) = if e.new_lines.is_empty() {
            ("old", &e.old_file, &e.old_lines)
        } else {
            ("new", &e.new_file, &e.new_lines)
        };
        let (start, end) = (
            lines.first().copied().unwrap_or(1),
            lines.last().copied().unwrap_or(1),
        );
        let span = |lines: &[u32]| match (lines.first(), lines.last()) {
            (Some(a), Some(b)) if a != b => format!("{a}-{b}"),
            (Some(a), _) => a.to_string(),
            _ => "none".to_string(),
        };
        results.push(json!({
            "ruleId": "RPL002",
            "ruleIndex": 1,
            "level": "note",
            "message": { "text": format!(
                "Proved equivalent ({}): {} in {}: old {}:{} = new {}:{}; no source of impact.",
                e.proof, e.what, e.function, e.old_file, span(&e.old_lines), e.new_file, span(&e.new_lines)
            ) },
            "locations": [location(vers, file, start, end, None)],
            "partialFingerprints": { "rippleEquivalence/v1": fingerprint(&["RPL002", vers, file, &start.to_string(), &end.to_string(), &e.what]) }
        }));
    }
    let notifications: Vec<Value> = view
        .incomplete
        .iter()
        .chain(&view.approximations)
        .map(|text| json!({ "level": "note", "message": { "text": text } }))
        .collect();
    let s = &view.summary;
    let bases = version_bases(&view.old, &view.new);
    let mut log = sarif_log(version, bases, notifications, results);
    log["runs"][0]["properties"] = json!({
        "changedLines": s.changed_lines,
        "impactedLines": s.impacted_lines,
        "dciaImpactedLines": s.dcia_impacted_lines,
        "impactedFunctions": s.impacted_functions.len(),
        "provedEquivalent": view.proved_equivalent,
        "codeFlowsPerResult": MAX_CODE_FLOWS,
        "codeFlowsNote": format!("each impact result has the code flows of its {MAX_CODE_FLOWS} nearest impacted functions at most (its properties count them all); ripple's JSON report has every chain")
    });
    serde_json::to_string_pretty(&log).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// An old file's line, given its file and line in the new version.
pub type NewPlace<'a> = dyn FnMut(&str, u32) -> Option<(String, u32)> + 'a;

/// `log` with every result placed in the old version (a deleted line, a function only
/// it has) moved to the new version: code scanning reads a location's path and line
/// against the commit it analyses, the new one, whatever its `uriBaseId`. `new_place`
/// gives an old file's line its file and line in the new version (where deleted lines
/// were: the line that follows them); a result keeps its old place as its first related
/// location.
pub fn place_in_new_version(log: String, new_place: &mut NewPlace) -> String {
    let Ok(mut value) = serde_json::from_str::<Value>(&log) else {
        return log;
    };
    let mut moved = 0;
    for run in value["runs"].as_array_mut().into_iter().flatten() {
        for result in run["results"].as_array_mut().into_iter().flatten() {
            moved += usize::from(move_result(result, new_place));
        }
    }
    if moved == 0 {
        return log;
    }
    serde_json::to_string_pretty(&value).unwrap_or(log)
}

/// Moves one result's primary location, if it is in the old version and its file has a
/// new version; says whether it did.
fn move_result(result: &mut Value, new_place: &mut NewPlace) -> bool {
    let location = &result["locations"][0];
    let physical = &location["physicalLocation"];
    if physical["artifactLocation"]["uriBaseId"] != "OLDROOT" {
        return false;
    }
    let (Some(file), Some(start)) = (
        physical["artifactLocation"]["uri"].as_str(),
        physical["region"]["startLine"].as_u64(),
    ) else {
        return false;
    };
    let end = physical["region"]["endLine"].as_u64().unwrap_or(start);
    let (start, end) = (start as u32, end as u32);
    let (Some((new_file, new_start)), Some((_, new_end))) =
        (new_place(file, start), new_place(file, end))
    else {
        return false;
    };
    let mut old_place = location.clone();
    old_place["message"] = json!({ "text": if start == end {
        format!("the old version's line {start}")
    } else {
        format!("the old version's lines {start}-{end}")
    } });
    let related = result["relatedLocations"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let next_id = related
        .iter()
        .filter_map(|r| r["id"].as_u64())
        .max()
        .map_or(0, |m| m + 1);
    old_place["id"] = json!(next_id);
    let mut list = vec![old_place];
    list.extend(related);
    result["relatedLocations"] = Value::Array(list);
    result["locations"][0]["physicalLocation"] = json!({
        "artifactLocation": { "uri": new_file, "uriBaseId": "NEWROOT" },
        "region": { "startLine": new_start, "endLine": new_end.max(new_start) }
    });
    true
}

/// A SARIF 2.1.0 log of one run of ripple: its rules, the two versions' roots, the
/// notifications and the results.
fn sarif_log(version: &str, bases: Value, notifications: Vec<Value>, results: Vec<Value>) -> Value {
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "ripple",
                "version": version,
                "rules": rules()
            } },
            "originalUriBaseIds": bases,
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications
            }],
            "results": results
        }]
    })
}

fn impact_result(view: &ImpactLinesView, hunk: &Hunk, lines: &[&ImpactedLineView]) -> Value {
    // Per function, its nearest line (the first of the nearest distance).
    let mut nearest: BTreeMap<&str, &ImpactedLineView> = BTreeMap::new();
    for &l in lines {
        let best = nearest.entry(l.function.as_str()).or_insert(l);
        if (l.distance, l.line) < (best.distance, best.line) {
            *best = l;
        }
    }
    let mut functions: Vec<&ImpactedLineView> = nearest.values().copied().collect();
    functions.sort_by(|a, b| (a.distance, &a.function).cmp(&(b.distance, &b.function)));
    let named: Vec<String> = functions
        .iter()
        .take(5)
        .map(|l| format!("{} (distance {})", l.function, l.distance))
        .collect();
    let more = functions.len().saturating_sub(named.len());
    let of_old = lines.iter().filter(|l| l.version == "old").count();
    let counted = match (of_old, lines.len() - of_old) {
        (old, 0) => format!("{old} line(s) of the old version"),
        (0, new) => format!("{new} line(s) of the new version"),
        (old, new) => format!("{old} line(s) of the old version and {new} of the new"),
    };
    let text = format!(
        "This change impacts {counted} in {} function(s): {}{}.",
        functions.len(),
        named.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    );
    let mut sorted: Vec<&ImpactedLineView> = lines.to_vec();
    sorted.sort_by(|a, b| (a.distance, &a.file, a.line).cmp(&(b.distance, &b.file, b.line)));
    let related: Vec<Value> = sorted
        .iter()
        .take(MAX_RELATED)
        .enumerate()
        .map(|(i, l)| {
            let mut loc = location(
                l.version,
                &l.file,
                l.line,
                l.line,
                Some(&format!(
                    "impacted in {} (distance {})",
                    l.function, l.distance
                )),
            );
            loc["id"] = json!(i);
            loc
        })
        .collect();
    let flows: Vec<Value> = functions
        .iter()
        .take(MAX_CODE_FLOWS)
        .map(|l| code_flow(view, l))
        .collect();
    json!({
        "ruleId": "RPL001",
        "ruleIndex": 0,
        "level": "note",
        "message": { "text": text },
        "locations": [location(hunk.version, &hunk.file, hunk.start, hunk.end, None)],
        "relatedLocations": related,
        "codeFlows": flows,
        "partialFingerprints": { "rippleImpact/v1": fingerprint(&[
            "RPL001", hunk.version, &hunk.file, &hunk.start.to_string(), &hunk.end.to_string()
        ]) },
        "properties": { "impactedLines": lines.len(), "impactedFunctions": functions.len() }
    })
}

/// The `originalUriBaseIds` of a log over one program.
fn program_base(label: &str) -> Value {
    json!({ "SRCROOT": { "description": { "text": format!("the program: {label}") } } })
}

/// Up to [`MAX_RELATED`] related locations of one program, each with its message.
fn related(items: impl Iterator<Item = (String, u32, String)>) -> Vec<Value> {
    items
        .take(MAX_RELATED)
        .enumerate()
        .map(|(id, (file, line, text))| {
            let mut loc = location("program", &file, line, line, Some(&text));
            loc["id"] = json!(id);
            loc
        })
        .collect()
}

/// The SARIF log of `ripple slice`: one result at the criterion.
pub fn render_slice(view: &crate::slice::SliceView, version: &str) -> String {
    let c = &view.criterion;
    let functions = &view.summary.functions;
    let text = format!(
        "The {} slice of {}:{} has {} line(s) in {} function(s): {}.",
        view.direction,
        c.file,
        c.line,
        view.summary.lines,
        functions.len(),
        functions.join(", ")
    );
    let result = json!({
        "ruleId": "RPL004",
        "ruleIndex": 3,
        "level": "note",
        "message": { "text": text },
        "locations": [location("program", &c.file, c.line, c.line, None)],
        "relatedLocations": related(view.lines.iter().map(|l| {
            (l.file.clone(), l.line, format!("{}:{} in {}", l.file, l.line, l.function))
        })),
        "partialFingerprints": {
            "rippleSlice/v1": fingerprint(&["RPL004", view.direction, &c.file, &c.line.to_string()])
        }
    });
    let log = sarif_log(
        version,
        program_base(&view.program),
        Vec::new(),
        vec![result],
    );
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

/// The SARIF log of `ripple sea`: one result per set, at the function's definition.
pub fn render_sea(view: &crate::sea::SeaView, label: &str, version: &str) -> String {
    let place = |name: &str| view.locations.get(name).cloned();
    let results: Vec<Value> = view
        .sets
        .iter()
        .filter_map(|set| {
            let (file, line) = place(&set.function)?;
            let (after, when) = if view.relation == "SEB" {
                ("before", "returns")
            } else {
                ("after", "starts")
            };
            let text = format!(
                "{} function(s) may execute {after} {} {when}: {}.",
                set.sea.len(),
                set.function,
                set.sea.join(", ")
            );
            Some(json!({
                "ruleId": "RPL005",
                "ruleIndex": 4,
                "level": "note",
                "message": { "text": text },
                "locations": [location("program", &file, line, line, None)],
                "relatedLocations": related(set.sea.iter().filter_map(|m| {
                    place(m).map(|(f, l)| (f, l, m.clone()))
                })),
                "partialFingerprints": {
                    "rippleSea/v1": fingerprint(&["RPL005", view.relation, &file, &set.function])
                }
            }))
        })
        .collect();
    let log = sarif_log(version, program_base(label), Vec::new(), results);
    serde_json::to_string_pretty(&log).unwrap_or_default()
}
