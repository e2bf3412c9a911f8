//! The statement-level impact report as one self-contained HTML page: the summary and
//! verdict first, the proved equivalences, then per file the old and the new version
//! side by side, cut to the changed and impacted lines with a few lines of context;
//! changed lines are marked, impacted lines highlighted by distance, and clicking an
//! impacted line shows its shortest dependence chain back to the change.
//!
//! The page needs no network: styles, script and data (the report's JSON and the source
//! lines shown) are inline. Opening it with `#click=VERSION:FILE:LINE` clicks that line
//! once the page is built (for scripted checks in a headless browser).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::impact_lines::ImpactLinesView;

/// Lines of context shown around each changed or impacted line.
const CONTEXT: u32 = 3;

/// The source text of one file of one version.
pub struct SourceText<'a> {
    /// `old` or `new`.
    pub version: &'a str,
    /// Relative to the version's root, as in the report.
    pub file: &'a str,
    pub text: &'a str,
}

#[derive(Serialize)]
struct Excerpt {
    version: String,
    file: String,
    /// (line number, text); a gap between runs is shown as an ellipsis.
    lines: Vec<(u32, String)>,
}

#[derive(Serialize)]
struct PageData<'a> {
    report: &'a ImpactLinesView,
    excerpts: Vec<Excerpt>,
}

/// The page for `view`; `sources` are the texts of the files it names (others are
/// listed without their lines).
pub fn render(view: &ImpactLinesView, sources: &[SourceText]) -> String {
    // The lines worth showing, per (version, file).
    let mut wanted: BTreeMap<(&str, &str), BTreeSet<u32>> = BTreeMap::new();
    for l in &view.changed_lines {
        wanted
            .entry((l.version, l.file.as_str()))
            .or_default()
            .insert(l.line);
    }
    for l in &view.impacted_lines {
        wanted
            .entry((l.version, l.file.as_str()))
            .or_default()
            .insert(l.line);
    }
    let mut excerpts = Vec::new();
    for ((version, file), lines) in &wanted {
        let Some(source) = sources
            .iter()
            .find(|s| s.version == *version && s.file == *file)
        else {
            continue;
        };
        let text: Vec<&str> = source.text.lines().collect();
        let mut shown: BTreeSet<u32> = BTreeSet::new();
        for &l in lines {
            let lo = l.saturating_sub(CONTEXT).max(1);
            let hi = (l + CONTEXT).min(text.len() as u32);
            shown.extend(lo..=hi);
        }
        excerpts.push(Excerpt {
            version: (*version).to_string(),
            file: (*file).to_string(),
            lines: shown
                .into_iter()
                .map(|n| (n, text[(n - 1) as usize].to_string()))
                .collect(),
        });
    }
    let data = PageData {
        report: view,
        excerpts,
    };
    // Inside <script>, `</` would end the element: escaped in the JSON.
    let json = serde_json::to_string(&data)
        .unwrap_or_else(|_| "{}".to_string())
        .replace("</", "<\\/");
    let title = format!("ripple impact: {} -> {}", view.old, view.new);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header id=\"summary\"></header>\n<main>\n<section id=\"files\"></section>\n<aside id=\"why\"><h2>Why is this line impacted?</h2><p id=\"chain\">Click an impacted line.</p></aside>\n</main>\n<script type=\"application/json\" id=\"ripple-data\">{json}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        escape(&title)
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = r#"
body { font-family: system-ui, sans-serif; margin: 0; color: #1b1f24; }
header { padding: 12px 20px; border-bottom: 1px solid #d0d7de; background: #f6f8fa; }
header h1 { font-size: 18px; margin: 0 0 6px 0; }
.verdict { font-weight: 600; color: #116329; }
main { display: flex; align-items: flex-start; }
#files { flex: 1; padding: 12px 20px; min-width: 0; }
#why { width: 30%; position: sticky; top: 0; padding: 12px 20px; border-left: 1px solid #d0d7de; }
#why ol { padding-left: 20px; }
.pair { display: flex; gap: 12px; margin-bottom: 24px; }
.side { flex: 1; min-width: 0; overflow-x: auto; }
.side h3 { font-size: 13px; margin: 4px 0; font-family: monospace; }
table.code { border-collapse: collapse; font-family: monospace; font-size: 12px; width: 100%; }
table.code td { padding: 0 6px; white-space: pre; }
td.num { color: #6e7781; text-align: right; user-select: none; width: 1%; }
tr.changed-old td { background: #ffebe9; }
tr.changed-new td { background: #dafbe1; }
tr.impacted td { background: #fff8c5; cursor: pointer; }
tr.impacted.near td { background: #ffdf5d; }
tr.selected td { background: #b6e3ff; }
tr.gap td { color: #6e7781; }
ul.equivalences li { margin: 2px 0; }
"#;

const SCRIPT: &str = r#"
(function () {
  const data = JSON.parse(document.getElementById('ripple-data').textContent);
  const report = data.report;
  const s = report.summary;
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const header = document.getElementById('summary');
  header.appendChild(el('h1', {}, 'Impact of the change: ' + report.old + ' \u2192 ' + report.new));
  if (report.proved_equivalent) {
    header.appendChild(el('p', {class: 'verdict'}, 'The change is proved equivalent: the changed statements, or the functions holding them, do what the old ones did; nothing is impacted.'));
  }
  const oldCount = report.impacted_lines.filter(l => l.version === 'old').length;
  const newCount = report.impacted_lines.length - oldCount;
  const split = oldCount > 0 && newCount > 0 ? ' (' + oldCount + ' of the old version, ' + newCount + ' of the new)' : '';
  let line = s.changed_lines + ' changed line(s); ' + s.impacted_lines + ' impacted line(s)' + split + ' in ' + s.impacted_functions.length + ' function(s)';
  if (s.dcia_impacted_lines > s.impacted_lines) line += ' (' + s.dcia_impacted_lines + ' without the proved equivalences)';
  header.appendChild(el('p', {id: 'counts'}, line));
  if (report.equivalences.length) {
    const ul = el('ul', {class: 'equivalences'});
    for (const e of report.equivalences) {
      ul.appendChild(el('li', {}, 'Proved equivalent (' + e.proof + '): ' + e.what + ' in ' + e.function + ': old ' + e.old_file + ':' + e.old_lines.join(',') + ' = new ' + e.new_file + ':' + e.new_lines.join(',')));
    }
    header.appendChild(ul);
  }
  for (const a of report.approximations) header.appendChild(el('p', {class: 'approximation'}, 'Approximation: ' + a));
  const key = (v, f, n) => v + ':' + f + ':' + n;
  const changed = new Set(report.changed_lines.map(l => key(l.version, l.file, l.line)));
  const impacted = new Map(report.impacted_lines.map(l => [key(l.version, l.file, l.line), l]));
  const rows = new Map();
  const files = document.getElementById('files');
  const names = [...new Set(data.excerpts.map(x => x.file))].sort();
  for (const name of names) {
    const pair = el('div', {class: 'pair'});
    for (const version of ['old', 'new']) {
      const side = el('div', {class: 'side'});
      side.appendChild(el('h3', {}, version + ' ' + name));
      const x = data.excerpts.find(e => e.version === version && e.file === name);
      const table = el('table', {class: 'code'});
      let last = 0;
      for (const [n, text] of (x ? x.lines : [])) {
        if (last && n > last + 1) {
          const gap = el('tr', {class: 'gap'});
          gap.appendChild(el('td', {class: 'num'}, '\u22ee'));
          gap.appendChild(el('td', {}, ''));
          table.appendChild(gap);
        }
        last = n;
        const k = key(version, name, n);
        const tr = el('tr', {id: 'L-' + k});
        if (changed.has(k)) tr.classList.add('changed-' + version);
        const hit = impacted.get(k);
        if (hit) {
          tr.classList.add('impacted');
          if (hit.distance <= 1) tr.classList.add('near');
          tr.title = 'impacted in ' + hit.function + ' (distance ' + hit.distance + ')';
          tr.addEventListener('click', () => select(k));
        }
        tr.appendChild(el('td', {class: 'num'}, String(n)));
        tr.appendChild(el('td', {}, text));
        table.appendChild(tr);
        rows.set(k, tr);
      }
      side.appendChild(table);
      pair.appendChild(side);
    }
    files.appendChild(pair);
  }
  // A line's chain: the line, then the shared steps from its `via` on.
  function chainOf(l) {
    const out = [l.file + ':' + l.line];
    for (let i = l.via; i !== null && i !== undefined; i = report.chain_steps[i].next) {
      out.push(report.chain_steps[i].step);
    }
    return out;
  }
  function select(k) {
    for (const tr of document.querySelectorAll('tr.selected')) tr.classList.remove('selected');
    const hit = impacted.get(k);
    const tr = rows.get(k);
    if (!hit || !tr) return;
    tr.classList.add('selected');
    const why = document.getElementById('chain');
    why.textContent = '';
    why.appendChild(el('span', {}, hit.version + ' ' + hit.file + ':' + hit.line + ' in ' + hit.function + ', distance ' + hit.distance + ':'));
    const ol = el('ol', {id: 'chain-steps'});
    for (const step of chainOf(hit)) ol.appendChild(el('li', {}, step));
    why.appendChild(ol);
  }
  const m = /^#click=(.*)$/.exec(decodeURIComponent(location.hash));
  if (m && rows.has(m[1])) rows.get(m[1]).click();
  document.body.setAttribute('data-ready', 'yes');
})();
"#;
