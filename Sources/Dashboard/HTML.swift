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
            // ASCII letters and digits tested directly: CharacterSet's lookup per scalar was a
            // sixth of a render.
            let value = scalar.value
            if (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
                || scalar == "." || scalar == "_" || scalar == "-" {
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
        // Site paths have no empty segments: their depth is their count of slashes.
        let depth = from.utf8.reduce(0) { $0 + ($1 == 0x2F ? 1 : 0) }
        return String(repeating: "../", count: depth) + to
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
    /// <code>Text("x")</code>. Everything is escaped; an unpaired backtick stays as it is; the
    /// prose around the code gets `breakable`'s break opportunities (API names in prose).
    public static func inlineCode(_ text: String) -> String {
        guard text.utf8.contains(0x60) else { return breakable(text) }
        let parts = text.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3 else { return breakable(text) }
        var html = breakable(parts[0])
        for index in 1..<parts.count {
            if index % 2 == 0 {
                html += breakable(parts[index])
            } else if index < parts.count - 1 {
                html += "<code>\(escape(parts[index]))</code>"
            } else {
                html += "`" + breakable(parts[index])
            }
        }
        return html
    }

    /// Text escaped, with break opportunities where names have parts: after `/`, `-`, `_` and
    /// `.`, and between a lower-case letter and a capital (`DesignSystem<wbr>Catalogue`). A narrow
    /// column then wraps a long name between its parts, never in the middle of a word.
    public static func breakable(_ name: String) -> String {
        // Byte by byte (a String per character was a fifth of a render): the five escapes and the
        // break characters are ASCII, and so is the camel-case test; other bytes pass through.
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count + 16)
        var previous: UInt8 = 0
        for byte in name.utf8 {
            let isUpper = (0x41...0x5A).contains(byte)
            if isUpper, (0x61...0x7A).contains(previous) || (0x30...0x39).contains(previous) { out.append(contentsOf: wbr) }
            HTMLText.appendEscaped(byte, to: &out)
            // After / - _ .
            if byte == 0x2F || byte == 0x2D || byte == 0x5F || byte == 0x2E { out.append(contentsOf: wbr) }
            previous = byte
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let wbr: [UInt8] = Array("<wbr>".utf8)

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
