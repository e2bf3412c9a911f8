//! `ripple impact --format html` in a real browser: headless Chromium (Debian's
//! `chromium`, installed by .ci/run) opens the page with `#click=` naming an impacted
//! line, the script clicks it, and the dumped DOM must show the changed and impacted
//! lines marked and that line's chain in the side panel; a screenshot is saved next to
//! the test binaries (`html-report.png`). Without Chromium only the page's own content is
//! checked, and the test says so.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(version: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/impact/known-global")
        .join(version)
}

fn page() -> String {
    let out = assert_cmd::Command::cargo_bin("ripple")
        .expect("the ripple binary builds")
        .arg("impact")
        .arg(fixture("old"))
        .arg(fixture("new"))
        .args(["--format", "html"])
        .output()
        .expect("ripple runs");
    assert_eq!(out.status.code(), Some(1));
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            Command::new(name)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

fn headless(browser: &str, args: &[&str], url: &str) -> std::process::Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .arg(format!(
            "--user-data-dir={}",
            std::env::temp_dir()
                .join(format!("ripple-chromium-{}", std::process::id()))
                .display()
        ))
        .args(args)
        .arg(url)
        .output()
        .expect("the browser runs")
}

#[test]
fn the_page_is_self_contained_and_carries_the_report() {
    let html = page();
    assert!(html.starts_with("<!DOCTYPE html>"));
    // No network: no external script, style or image.
    for needle in ["src=\"http", "href=\"http", "@import"] {
        assert!(!html.contains(needle), "{needle}");
    }
    // The report and the source lines shown are inline.
    // Chains are shared steps the page follows (the click test shows one whole).
    for step in [
        "{\"step\":\"prog.c:13 call argument changed\",\"next\":null}",
        "\"step\":\"l (param of cap)\"",
    ] {
        assert!(html.contains(step), "{step}");
    }
    assert!(html.contains("cap(limit);"));
}

#[test]
fn clicking_an_impacted_line_in_chromium_shows_its_chain() {
    let Some(browser) = chromium() else {
        eprintln!(
            "Chromium is not installed: the browser check is skipped (apt-get install chromium)"
        );
        return;
    };
    let dir = tempfile::tempdir().expect("a scratch directory");
    let file = dir.path().join("impact.html");
    std::fs::write(&file, page()).expect("write");
    let url = format!("file://{}#click=new:prog.c:7", file.display());
    let out = headless(browser, &["--dump-dom"], &url);
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(
        dom.contains("data-ready=\"yes\""),
        "the script ran: {dom}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // cap's printf (line 7) is impacted in both versions; the changed calls are marked.
    assert!(
        dom.contains("<tr id=\"L-old:prog.c:7\" class=\"impacted\""),
        "{dom}"
    );
    assert!(
        dom.contains("<tr id=\"L-new:prog.c:7\" class=\"impacted selected\""),
        "{dom}"
    );
    assert!(
        dom.contains("<tr id=\"L-new:prog.c:13\" class=\"changed-new\""),
        "{dom}"
    );
    assert!(
        dom.contains("<tr id=\"L-old:prog.c:13\" class=\"changed-old\""),
        "{dom}"
    );
    // The click showed the chain, from the line back to the change.
    assert!(
        dom.contains("<ol id=\"chain-steps\"><li>prog.c:7</li><li>l (param of cap)</li><li>prog.c:13 call argument changed</li></ol>"),
        "{dom}"
    );
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("html-report.png");
    let arg = format!("--screenshot={}", shot.display());
    let out = headless(browser, &[&arg, "--window-size=1400,900"], &url);
    assert!(out.status.success(), "{out:?}");
    let png = std::fs::read(&shot).expect("the screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "a real screenshot"
    );
}
