#!/usr/bin/env python3
"""Accessibility check of a served dashboard site in a real headless Chromium.

Starting from a base URL it crawls every internal link (pages, stylesheets, images, fragments),
fails on any broken one, runs axe-core on every HTML page in light and dark mode
(prefers-color-scheme emulated over the DevTools protocol), checks each page's structure (one
h1, a main landmark, a working skip link with a visible focus outline), checks that there is no
horizontal scrolling at 200% zoom (and at 400%, WCAG 1.4.10's 320 CSS px), checks the layout at
320, 768 and 1280 px (nothing wider than the window, no word broken mid-letter, no table cut off),
and saves full-page screenshots of the first page of each page kind (light, dark, each width,
200% light and dark).

Usage: check_site.py BASE_URL --artifacts DIR [--chromium PATH] [--chromedriver PATH]
                     [--header 'Authorization: Basic ...'] [--max-pages N]
Exit status: 0 no problem, 1 problems (listed, and in DIR/report.json), 2 usage or setup error.
Set up with Tests/browser/setup.sh (Debian's chromium and chromium-driver, selenium and
selenium-axe-python in .venv-browser/).
"""

import argparse
import base64
import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import deque

# Never let Selenium Manager try to download a driver or a browser: ours come from Debian.
os.environ.setdefault("SE_OFFLINE", "true")

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium_axe_python import Axe
except ImportError as error:  # pragma: no cover - a setup problem, not a page problem
    print(f"check_site: {error}: run Tests/browser/setup.sh and use .venv-browser/bin/python", file=sys.stderr)
    sys.exit(2)

# Path segments that name a kind of page rather than one team, repository or night.
STRUCTURAL_SEGMENTS = {
    "index", "teams", "team", "regressions", "repos", "repositories", "runs", "run", "jobs", "job", "rules",
    "rule", "labels", "nutrition", "pr", "prs", "checks", "assets", "archive", "pulls", "readiness",
}

# Window widths (CSS px at 100%) at which each page's layout is checked: a phone, a tablet, a laptop.
LAYOUT_WIDTHS = [320, 768, 1280]

ZOOM_CHECKS = [
    # (name, CSS viewport width at a 1280 px window, device scale factor)
    ("zoom200", 640, 2),
    ("zoom400", 320, 4),
]


class Problems:
    def __init__(self):
        self.items = []

    def add(self, kind, url, message, details=None):
        self.items.append({"kind": kind, "url": url, "message": message, "details": details or []})


def page_kind(path):
    """`/teams/payments/regressions/2026-01-15.html` -> `teams/*/regressions/*`."""
    segments = [s for s in path.split("/") if s]
    if not segments or path.endswith("/"):
        segments.append("index")
    kind = []
    for segment in segments:
        stem = re.sub(r"\.html?$", "", segment)
        kind.append(stem if stem in STRUCTURAL_SEGMENTS else "*.findings" if stem.endswith(".findings") else "*")
    return "/".join(kind)


# A long list's filtered views and pages repeat the repository page's markup, dozens per
# repository: the first few get every check, the rest their links.
SAMPLED_KINDS = {"repos/*/*.findings/*": 8}


def check_filter_script(driver, url, problems):
    """filters.js: choosing a rule keeps exactly that rule's findings, and says how many."""
    outcome = driver.execute_script("""
        const select = document.querySelector('.finding-filter-form select[name="rule"]');
        if (!select || select.options.length < 3) return null;
        const value = select.options[2].value;
        select.value = value;
        select.dispatchEvent(new Event('change'));
        const items = [...document.querySelectorAll('li.finding[data-rule]')];
        const shown = items.filter(item => !item.hidden && item.offsetParent !== null);
        const wrong = shown.filter(item => item.getAttribute('data-rule') !== value).length;
        const expected = items.filter(item => item.getAttribute('data-rule') === value).length;
        const status = document.querySelector('.finding-filter-form [role="status"]').textContent;
        select.value = '';
        select.dispatchEvent(new Event('change'));
        const restored = items.filter(item => !item.hidden).length;
        return {value, shown: shown.length, wrong, expected, status, restored, total: items.length};
    """)
    if outcome is None:
        return False
    if outcome["wrong"] or outcome["shown"] != outcome["expected"] or outcome["restored"] != outcome["total"] \
            or not outcome["status"].startswith(f"{outcome['expected']} of {outcome['total']}"):
        problems.add("script", url, f"filtering by rule {outcome['value']!r} went wrong", [json.dumps(outcome)])
    return True


def screenshot_name(kind):
    return re.sub(r"[^A-Za-z0-9_-]+", "_", kind.replace("*", "x")).strip("_") or "index"


class Fetcher:
    """Plain HTTP for resources that are not pages (and for the status of every link)."""

    def __init__(self, headers):
        self.headers = headers
        self.cache = {}

    def status(self, url):
        if url in self.cache:
            return self.cache[url]
        request = urllib.request.Request(url, headers=self.headers, method="GET")
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                result = (response.status, response.headers.get("Content-Type", ""), response.geturl())
        except urllib.error.HTTPError as error:
            result = (error.code, error.headers.get("Content-Type", "") if error.headers else "", url)
        except (urllib.error.URLError, OSError) as error:
            result = (0, str(error), url)
        self.cache[url] = result
        return result


def make_driver(chromium, chromedriver):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--force-color-profile=srgb", "--lang=en-GB",
                     "--font-render-hinting=none", "--disable-extensions"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)


def set_color_scheme(driver, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme},
                                         {"name": "prefers-reduced-motion", "value": "reduce"}]})


def save_screenshot(driver, path):
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    with open(path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))


def run_axe(driver):
    axe = Axe(driver)
    axe.inject()
    # Every rule axe runs by default (WCAG 2.x A/AA and best practices), plus the page's
    # own iframes if any. `color-contrast` judges the scheme currently emulated.
    return axe.run(options={"resultTypes": ["violations"]})


def describe_violations(violations):
    lines = []
    for violation in violations:
        targets = ["; ".join(node.get("target", [])) if isinstance(node.get("target"), list) else str(node.get("target"))
                   for node in violation.get("nodes", [])]
        lines.append(f"{violation['id']} ({violation.get('impact')}): {violation.get('help')} - "
                     f"{len(targets)} element(s): {', '.join(targets[:5])}")
        for node in violation.get("nodes", [])[:3]:
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            if summary:
                lines.append(f"    {summary}")
    return lines


def check_structure(driver, url, problems):
    facts = driver.execute_script("""
        const h1s = document.querySelectorAll('h1').length;
        const main = document.querySelectorAll('main, [role=main]').length;
        const lang = document.documentElement.getAttribute('lang') || '';
        const title = document.title.trim();
        return {h1s, main, lang, title};
    """)
    if facts["h1s"] != 1:
        problems.add("structure", url, f"the page has {facts['h1s']} h1 elements, not exactly one")
    if facts["main"] != 1:
        problems.add("structure", url, f"the page has {facts['main']} main landmarks, not exactly one")
    if not facts["lang"]:
        problems.add("structure", url, "<html> has no lang attribute")
    if not facts["title"]:
        problems.add("structure", url, "the page has no <title>")
    # The first Tab must land on a visible skip link whose target exists, with a focus outline.
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    ActionChains(driver).send_keys(Keys.TAB).perform()
    focus = driver.execute_script("""
        const el = document.activeElement;
        if (!el || el === document.body) return null;
        const r = el.getBoundingClientRect();
        const s = getComputedStyle(el);
        const href = el.getAttribute('href') || '';
        const target = href.startsWith('#') ? document.getElementById(decodeURIComponent(href.slice(1))) : null;
        // Relative to the top of the document: where a reader who just arrived sees it.
        return {href, text: el.textContent.trim(), top: r.top + window.scrollY, bottom: r.bottom + window.scrollY,
                width: r.width, height: r.height,
                outlineStyle: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth) || 0,
                targetExists: !!target, innerHeight: window.innerHeight};
    """)
    if focus is None:
        problems.add("skip-link", url, "the first Tab focuses nothing")
        return
    if not focus["href"].startswith("#") or not focus["targetExists"]:
        problems.add("skip-link", url, f"the first focusable element is not a skip link to an existing id (href={focus['href']!r})")
    if focus["top"] < 0 or focus["bottom"] > focus["innerHeight"] or focus["width"] < 1 or focus["height"] < 1:
        problems.add("skip-link", url, "the skip link is not visible when focused", [json.dumps(focus)])
    if focus["outlineStyle"] == "none" or focus["outlineWidth"] < 2:
        problems.add("focus", url, f"the focused skip link has no visible outline ({focus['outlineStyle']} {focus['outlineWidth']}px)")
    driver.execute_script("document.activeElement && document.activeElement.blur();")


def check_zoom(driver, url, problems, shots):
    """Emulates browser zoom by shrinking the CSS viewport of a 1280 px window: at 200% a page
    lays out in 640 CSS px. `shots` maps a zoom name to a screenshot path prefix (or None)."""
    for name, width, scale in ZOOM_CHECKS:
        with Viewport(driver, width, 900 // scale * 2, scale):
            sizes = driver.execute_script("""
                const d = document.documentElement;
                const wide = [];
                for (const el of document.body.querySelectorAll('*')) {
                    const r = el.getBoundingClientRect();
                    if (r.right > d.clientWidth + 1 && r.width > 0) {
                        wide.push(el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') + ' right=' + Math.round(r.right));
                        if (wide.length >= 5) break;
                    }
                }
                return {scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, wide};
            """)
            if sizes["scrollWidth"] > sizes["clientWidth"]:
                problems.add("reflow", url,
                             f"horizontal scrolling at {name[4:]}% zoom: scrollWidth {sizes['scrollWidth']} > clientWidth {sizes['clientWidth']}",
                             sizes["wide"])
            prefix = shots.get(name)
            if prefix:
                save_both_schemes(driver, prefix)


LAYOUT_SCRIPT = """
    // Closed <details> (chart data, fixes) are opened: what they hold must lay out too.
    for (const details of document.querySelectorAll('details')) details.open = true;
    const d = document.documentElement;
    const out = {scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, wide: [], broken: [], clipped: []};
    const describe = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        (el.className && typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
        ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
    for (const el of document.body.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > d.clientWidth + 1) { out.wide.push(describe(el) + ' right=' + Math.round(r.right)); if (out.wide.length >= 5) break; }
    }
    // A word broken mid-letter: a run of letters between break opportunities (spaces, and the
    // <wbr> after / - _ . in names) that the browser laid out on more than one line. Code wraps
    // anywhere on purpose and is not checked.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let checked = 0;
    while (walker.nextNode() && out.broken.length < 5 && checked < 20000) {
        const node = walker.currentNode;
        const parent = node.parentElement;
        if (!parent || parent.closest('pre, code, svg, script, style, .visually-hidden, [aria-hidden=true]')) continue;
        if (parent.checkVisibility && !parent.checkVisibility()) continue;
        const text = node.nodeValue;
        const pattern = /[^\\s\\/\\-_.]+/g;
        let match;
        while ((match = pattern.exec(text)) !== null && out.broken.length < 5) {
            // Names break between camel-case parts too (the renderer puts <wbr> there).
            const word = match[0];
            const starts = [0];
            for (let k = 1; k < word.length; k++) {
                if (/[a-z0-9]/.test(word[k - 1]) && /[A-Z]/.test(word[k])) starts.push(k);
            }
            starts.push(word.length);
            for (let part = 0; part + 1 < starts.length && out.broken.length < 5; part++) {
                if (starts[part + 1] - starts[part] < 2) continue;
                checked++;
                range.setStart(node, match.index + starts[part]);
                range.setEnd(node, match.index + starts[part + 1]);
                const rects = [...range.getClientRects()].filter(x => x.width > 0);
                const lines = new Set(rects.map(x => Math.round(x.top)));
                if (lines.size > 1) {
                    out.broken.push(JSON.stringify(word.slice(starts[part], starts[part + 1])) + ' of ' + JSON.stringify(word) + ' in ' +
                                    describe(parent) + ' over ' + lines.size + ' lines');
                }
            }
        }
    }
    // A table cut off: wider than its box (and so hidden or scrolled) or past the viewport.
    // What is still not shown (hidden on purpose) is not laid out.
    const shown = el => !el.checkVisibility || el.checkVisibility();
    for (const table of document.querySelectorAll('table')) {
        if (!shown(table)) continue;
        const r = table.getBoundingClientRect();
        const box = table.parentElement;
        if (r.right > d.clientWidth + 1 || (box && box.scrollWidth > box.clientWidth + 1)) {
            out.clipped.push(describe(table) + ' (' + (table.caption ? table.caption.textContent.trim().slice(0, 60) : 'no caption') + ') right=' + Math.round(r.right));
        }
    }
    return out;
"""


class Viewport:
    """The page laid out in a CSS viewport of `width` x `height` at `scale`, for a `with` block."""

    def __init__(self, driver, width, height, scale):
        self.driver, self.metrics = driver, {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False}

    def __enter__(self):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", self.metrics)
        time.sleep(0.05)

    def __exit__(self, *exception):
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def save_both_schemes(driver, prefix):
    for scheme in ("light", "dark"):
        set_color_scheme(driver, scheme)
        save_screenshot(driver, f"{prefix}-{scheme}.png")
    set_color_scheme(driver, "light")


def check_layout(driver, url, problems, shot_prefix):
    """At each width in LAYOUT_WIDTHS: nothing wider than the viewport, no word broken
    mid-letter, no table cut off; screenshots of the first page of a kind, light and dark."""
    for width in LAYOUT_WIDTHS:
        with Viewport(driver, width, 900, 1):
            facts = driver.execute_script(LAYOUT_SCRIPT)
            # Elements past the edge inside a box that scrolls or clips are the table check's
            # business; the page itself must not scroll sideways.
            if facts["scrollWidth"] > facts["clientWidth"]:
                problems.add("layout", url, f"wider than the viewport at {width} px: scrollWidth {facts['scrollWidth']} > {facts['clientWidth']}",
                             facts["wide"])
            if facts["broken"]:
                problems.add("layout", url, f"words broken mid-letter at {width} px", facts["broken"])
            if facts["clipped"]:
                problems.add("layout", url, f"tables cut off at {width} px", facts["clipped"])
            if shot_prefix:
                save_both_schemes(driver, f"{shot_prefix}-w{width}")


def normalise(url):
    parsed = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((parsed.scheme, parsed.netloc, parsed.path or "/", parsed.query, ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base_url")
    parser.add_argument("--artifacts", required=True, help="folder for screenshots and report.json")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--header", action="append", default=[], help="'Name: value' sent with every request")
    parser.add_argument("--max-pages", type=int, default=5000)
    parser.add_argument("--expect-filter-script", action="store_true",
                        help="fail unless some page's in-page filter (filters.js) was exercised")
    arguments = parser.parse_args()

    base = arguments.base_url if arguments.base_url.endswith("/") else arguments.base_url + "/"
    base_parts = urllib.parse.urlsplit(base)
    headers = {}
    for header in arguments.header:
        name, _, value = header.partition(":")
        if not name.strip() or not value.strip():
            print(f"check_site: --header {header!r} must be 'Name: value'", file=sys.stderr)
            return 2
        headers[name.strip()] = value.strip()
    for path in (arguments.chromium, arguments.chromedriver):
        if not os.access(path, os.X_OK):
            print(f"check_site: {path} is not an executable: run Tests/browser/setup.sh", file=sys.stderr)
            return 2
    os.makedirs(arguments.artifacts, exist_ok=True)

    def internal(url):
        parts = urllib.parse.urlsplit(url)
        return parts.scheme in ("http", "https") and parts.netloc == base_parts.netloc and parts.path.startswith(base_parts.path)

    problems = Problems()
    fetcher = Fetcher(headers)
    driver = make_driver(arguments.chromium, arguments.chromedriver)
    pages = []
    kinds = {}
    checked_of_kind = {}
    filter_script_checked = False
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        if headers:
            driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": headers})
        queue = deque([normalise(base)])
        seen = {normalise(base)}
        linked_from = {normalise(base): "(start)"}
        while queue and len(pages) < arguments.max_pages:
            url = queue.popleft()
            status, content_type, _ = fetcher.status(url)
            if status != 200:
                problems.add("broken-link", url, f"HTTP {status or 'error'} ({content_type if not status else ''})".strip(),
                             [f"linked from {linked_from.get(url)}"])
                continue
            if not content_type.startswith("text/html"):
                continue
            pages.append(url)
            set_color_scheme(driver, "light")
            driver.get(url)
            if driver.execute_script("return document.readyState") != "complete":
                time.sleep(0.2)
            # Links and resources of the page, resolved by the browser itself.
            found = driver.execute_script("""
                const urls = [];
                for (const el of document.querySelectorAll('a[href], link[href], img[src], script[src], use[href], image[href], source[src]')) {
                    const raw = el.getAttribute('href') ?? el.getAttribute('src');
                    if (raw === null || raw.startsWith('mailto:') || raw.startsWith('data:')) continue;
                    urls.push([raw, new URL(raw, document.baseURI).href]);
                }
                const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
                const names = [...document.querySelectorAll('a[name]')].map(e => e.getAttribute('name'));
                return {urls, anchors: ids.concat(names)};
            """)
            anchors = set(found["anchors"])
            for raw, absolute in found["urls"]:
                fragment = urllib.parse.urlsplit(absolute).fragment
                target = normalise(absolute)
                if fragment and target == normalise(url) and urllib.parse.unquote(fragment) not in anchors:
                    problems.add("broken-link", url, f"fragment link {raw!r} has no element with that id")
                if internal(absolute) and target not in seen:
                    seen.add(target)
                    linked_from[target] = url
                    queue.append(target)

            path = urllib.parse.urlsplit(url).path[len(base_parts.path) - 1:]
            kind = page_kind(path)
            first_of_kind = kind not in kinds
            if first_of_kind:
                kinds[kind] = url
            name = screenshot_name(kind)
            checked_of_kind[kind] = checked_of_kind.get(kind, 0) + 1
            if checked_of_kind[kind] > SAMPLED_KINDS.get(kind, float("inf")):
                continue
            if not filter_script_checked:
                filter_script_checked = check_filter_script(driver, url, problems)

            for scheme in ("light", "dark"):
                set_color_scheme(driver, scheme)
                results = run_axe(driver)
                violations = results.get("violations", [])
                if violations:
                    problems.add("axe", url, f"{len(violations)} axe violation(s) in {scheme} mode", describe_violations(violations))
                if first_of_kind:
                    save_screenshot(driver, os.path.join(arguments.artifacts, f"{name}-{scheme}.png"))
            set_color_scheme(driver, "light")
            check_structure(driver, url, problems)
            check_layout(driver, url, problems, os.path.join(arguments.artifacts, name) if first_of_kind else None)
            check_zoom(driver, url, problems,
                       {"zoom200": os.path.join(arguments.artifacts, f"{name}-zoom200")} if first_of_kind else {})
    finally:
        driver.quit()

    report = {"base": base, "pages": pages, "kinds": kinds, "problems": problems.items}
    with open(os.path.join(arguments.artifacts, "report.json"), "w", encoding="utf-8") as file:
        json.dump(report, file, indent=2)
    print(f"checked {len(pages)} page(s) of {len(kinds)} kind(s) from {base}; "
          f"{len(seen) - len(pages)} other resource(s) linked")
    for kind, url in sorted(kinds.items()):
        print(f"  kind {kind}: {url}")
    if arguments.expect_filter_script and not filter_script_checked:
        problems.add("script", base, "no page had the in-page filter with a rule to choose: filters.js was not exercised")
    if problems.items:
        print(f"{len(problems.items)} problem(s):")
        for problem in problems.items:
            print(f"- [{problem['kind']}] {problem['url']}: {problem['message']}")
            for detail in problem["details"]:
                print(f"    {detail}")
        return 1
    print("no problems: every link resolves, zero axe violations in light and dark mode, no horizontal scrolling at 200% and 400% zoom, "
          "and at 320, 768 and 1280 px nothing wider than the window, no word broken mid-letter, no table cut off")
    return 0


if __name__ == "__main__":
    sys.exit(main())
