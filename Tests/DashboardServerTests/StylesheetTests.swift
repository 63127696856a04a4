import ColorAssets
import Foundation
import Testing

/// Web/dashboard.css's palette, read from the stylesheet itself: every text colour against
/// the backgrounds it is drawn on at WCAG AA (4.5:1), every non-text colour (borders, focus
/// ring, chart lines) at 3:1 (WCAG 1.4.11), in light and in dark mode.
@Suite struct StylesheetTests {
    static let css = (try? String(contentsOfFile: SiteFolder.repositoryRoot + "/Web/dashboard.css", encoding: .utf8)) ?? ""

    /// `--name: #rrggbb;` declarations of the first `:root {` block after `marker`.
    static func palette(after marker: String) -> [String: RGBA] {
        guard let start = css.range(of: marker), let root = css[start.upperBound...].range(of: ":root {") else { return [:] }
        let rest = css[root.upperBound...]
        guard let close = rest.firstIndex(of: "}") else { return [:] }
        var colours: [String: RGBA] = [:]
        for declaration in rest[..<close].split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard parts.count == 2, parts[0].hasPrefix("--"), let colour = RGBA(hex: parts[1]) else { continue }
            colours[String(parts[0].dropFirst(2))] = colour
        }
        return colours
    }

    static let light = palette(after: "*/")
    static let dark = palette(after: "@media (prefers-color-scheme: dark)")

    static let textPairs: [(String, String)] = [
        ("text", "bg"), ("text", "surface"), ("muted", "bg"), ("muted", "surface"), ("link", "bg"), ("link", "surface"),
        ("link", "code-bg"), ("link-visited", "bg"), ("link-visited", "surface"), ("header-text", "header-bg"),
        ("code-text", "code-bg"), ("highlight-text", "highlight-bg"),
    ] + ["error", "warning", "note", "ok", "neutral"].map { ("badge-\($0)-text", "badge-\($0)-bg") }

    static let nonTextPairs: [(String, String)] = [("border", "bg"), ("border", "surface"), ("focus", "bg"), ("focus", "surface"),
                                                   ("grid", "bg"), ("header-text", "header-bg")]
        + ["error", "warning", "note", "new", "fixed"].flatMap { [("series-\($0)", "bg"), ("series-\($0)", "surface")] }

    @Test(arguments: ["light", "dark"])
    func everyPairMeetsWCAGAA(scheme: String) throws {
        let palette = scheme == "light" ? Self.light : Self.dark
        #expect(palette.count >= 25, "the \(scheme) palette was read (\(palette.count) colours)")
        #expect(Set(Self.light.keys) == Set(Self.dark.keys), "both schemes define the same colours")
        for (minimum, pairs) in [(4.5, Self.textPairs), (3.0, Self.nonTextPairs)] {
            for (foreground, background) in pairs {
                let front = try #require(palette[foreground], "--\(foreground) in \(scheme)")
                let back = try #require(palette[background], "--\(background) in \(scheme)")
                let ratio = Contrast.ratio(foreground: front, background: back)
                #expect(ratio >= minimum, "\(scheme): --\(foreground) on --\(background) is \(ratio):1, needs \(minimum):1")
            }
        }
    }

    @Test func focusMotionAndSchemesAreHandled() {
        #expect(Self.css.contains(":focus-visible"))
        #expect(Self.css.contains("outline: 3px solid var(--focus)"))
        #expect(Self.css.contains("@media (prefers-reduced-motion: reduce)"))
        #expect(Self.css.contains("transition: none !important"))
        #expect(Self.css.contains("color-scheme: light dark"))
        #expect(Self.css.contains(".skip-link:focus"))
        #expect(!Self.css.contains("url("), "no external requests: the Content-Security-Policy would block them")
        #expect(!Self.css.contains("@import"))
    }
}
