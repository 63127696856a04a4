import AuditModel
import Foundation

/// HTML text building. Everything that comes from a repository or the database goes through
/// `escape` (text and attribute values alike); only our own literal markup does not.
public enum HTML {
    public static func escape(_ text: String) -> String { HTMLText.escape(text) }

    /// A path safe as one URL segment and file name: letters, digits, `.`, `_`, `-`.
    public static func segment(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "_" || scalar == "-" {
                out.unicodeScalars.append(scalar)
            } else if out.last != "-" {
                out.append("-")
            }
        }
        while out.hasPrefix(".") { out.removeFirst() }
        return out.isEmpty ? "-" : out
    }

    /// The href from page `from` to site path `to`, both relative to the site root: relative links
    /// keep the site working under any base path and on any static host.
    public static func href(from: String, to: String) -> String {
        let depth = from.split(separator: "/", omittingEmptySubsequences: true).count - 1
        return String(repeating: "../", count: max(0, depth)) + to
    }

    /// `12,345`: digits grouped by three (a NumberFormatter per number cost more than the rest
    /// of a page).
    public static func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// Message text with Markdown's backticks shown as code: `Text("x")` becomes
    /// <code>Text("x")</code>. Everything is escaped first; an unpaired backtick stays as it is.
    public static func inlineCode(_ text: String) -> String {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3 else { return escape(text) }
        var html = escape(parts[0])
        for index in 1..<parts.count {
            if index % 2 == 0 {
                html += escape(parts[index])
            } else if index < parts.count - 1 {
                html += "<code>\(escape(parts[index]))</code>"
            } else {
                html += "`" + escape(parts[index])
            }
        }
        return html
    }

    /// A name (`acme/payments-checkout-ios`) escaped, with break opportunities after `/`, `-`,
    /// `_` and `.`: a narrow column wraps it between its parts, never in the middle of a word.
    public static func breakable(_ name: String) -> String {
        var html = ""
        for character in name {
            html += escape(String(character))
            if character == "/" || character == "-" || character == "_" || character == "." { html += "<wbr>" }
        }
        return html
    }

    /// "+3", "−2", "±0": a change in words-and-signs, never colour alone.
    public static func change(_ value: Int) -> String {
        value > 0 ? "+\(value)" : value < 0 ? "\u{2212}\(-value)" : "\u{00B1}0"
    }

    public static func duration(_ seconds: Double) -> String {
        if seconds < 1 { return "\(Int(seconds * 1000)) ms" }
        if seconds < 120 { return String(format: "%.1f s", seconds) }
        if seconds < 7200 { return String(format: "%.0f min", seconds / 60) }
        return String(format: "%.1f h", seconds / 3600)
    }
}

/// A severity, state or kind shown as a badge: its name in text, with a symbol, and a class the
/// stylesheet colours; the colour is never the only signal.
enum Badge {
    static func severity(_ severity: String) -> String {
        let (symbol, label) = switch severity {
        case "error": ("\u{2716}", "Error")
        case "warning": ("\u{25B2}", "Warning")
        default: ("\u{25CF}", "Note")
        }
        return "<span class=\"badge badge--\(HTML.escape(severity))\"><span aria-hidden=\"true\">\(symbol)</span> \(label)</span>"
    }

    static func state(_ state: String) -> String {
        let symbol = switch state {
        case "succeeded": "\u{2714}"
        case "failed", "dead": "\u{2716}"
        case "running", "queued": "\u{25F7}"
        default: "\u{25CF}"
        }
        let label = state.prefix(1).uppercased() + state.dropFirst()
        return "<span class=\"badge badge--\(HTML.escape(state))\"><span aria-hidden=\"true\">\(symbol)</span> \(HTML.escape(label))</span>"
    }

    static func kind(_ kind: String) -> String {
        "<span class=\"kind kind-\(HTML.escape(kind))\">\(HTML.escape(kind.prefix(1).uppercased() + kind.dropFirst()))</span>"
    }
}
