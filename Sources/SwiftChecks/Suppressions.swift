import AuditModel

/// `// a11y-audit:disable:next rule-id`, `disable:this`, and `disable` / `enable` regions.
/// `all` stands for every rule. Each directive remembers whether it suppressed anything, so an
/// unused one can be reported.
struct Suppressions {
    struct Directive {
        let line: Int
        let column: Int
        let ruleIDs: [String]
        /// Lines covered, inclusive.
        var lines: ClosedRange<Int>
        /// `disable:next`: covers the whole statement that starts on the next line.
        var coversNextStatement = false
        var used: Set<String> = []
    }

    private(set) var directives: [Directive] = []
    /// Directives that could not be understood: (line, column, message).
    private(set) var malformed: [(line: Int, column: Int, message: String)] = []

    static let marker = "a11y-audit:"

    /// `isComment` tells whether the marker at a UTF-8 offset sits in a comment (not in a
    /// string literal that happens to contain the text).
    init(source: String, isComment: (Int) -> Bool = { _ in true }) {
        // Most files have no directive: a byte search decides that without Foundation's
        // string search, which costs as much as a fair part of the parse.
        guard Self.containsMarker(source) else { return }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        var openRegions: [String: (line: Int, column: Int)] = [:]
        var lineStart = 0
        for (offset, text) in lines.enumerated() {
            let lineNumber = offset + 1
            defer { lineStart += text.utf8.count + 1 }
            guard let markerRange = text.range(of: Self.marker) else { continue }
            let before = text[text.startIndex..<markerRange.lowerBound]
            guard before.hasSuffix("// ") || before.hasSuffix("//") || before.hasSuffix("/* ") || before.hasSuffix("/*") else {
                continue
            }
            guard isComment(lineStart + before.utf8.count) else { continue }
            // Point at the comment's `//` or `/*`, where a reader looks for it.
            let commentStart = before.trimmingSuffix(while: { $0 == " " }).count - 2
            let column = text[text.startIndex..<text.index(text.startIndex, offsetBy: max(commentStart, 0))]
                .unicodeScalars.count + 1
            var body = text[markerRange.upperBound...]
            if let close = body.range(of: "*/") { body = body[..<close.lowerBound] }
            let words = body.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
            guard let command = words.first else { continue }
            let ids = Array(words.dropFirst())
            if ids.isEmpty {
                malformed.append((lineNumber, column, "a11y-audit:\(command) names no rule; write a rule id or `all`"))
                continue
            }
            switch command {
            case "disable:next":
                directives.append(Directive(line: lineNumber, column: column, ruleIDs: ids,
                                            lines: (lineNumber + 1)...(lineNumber + 1), coversNextStatement: true))
            case "disable:this":
                directives.append(Directive(line: lineNumber, column: column, ruleIDs: ids, lines: lineNumber...lineNumber))
            case "disable":
                for id in ids {
                    if let open = openRegions[id] {
                        malformed.append((lineNumber, column, "a11y-audit:disable \(id) repeats the disable on line \(open.line); the region runs from there"))
                    } else {
                        openRegions[id] = (lineNumber, column)
                    }
                }
            case "enable":
                for id in ids {
                    if let start = openRegions.removeValue(forKey: id) {
                        directives.append(Directive(line: start.line, column: start.column, ruleIDs: [id],
                                                    lines: start.line...lineNumber))
                    } else {
                        malformed.append((lineNumber, column, "a11y-audit:enable \(id) has no matching disable above it"))
                    }
                }
            default:
                malformed.append((lineNumber, column,
                                  "unknown directive a11y-audit:\(command); use disable, enable, disable:next or disable:this"))
            }
        }
        for (id, start) in openRegions {
            directives.append(Directive(line: start.line, column: start.column, ruleIDs: [id],
                                        lines: start.line...max(start.line, lines.count)))
        }
        directives.sort { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    private static func containsMarker(_ source: String) -> Bool {
        let marker = Array(Self.marker.utf8)
        let bytes = source.utf8
        var index = bytes.startIndex
        while let found = bytes[index...].firstIndex(of: marker[0]) {
            if bytes[found...].starts(with: marker) { return true }
            index = bytes.index(after: found)
        }
        return false
    }

    /// Widens each `disable:next` to the statement that starts on the next line, so a
    /// modifier on a continuation line (`Text("a")` then `.font(…)`) is covered too.
    mutating func extendNextDirectives(_ lastLineOfStatement: (Int) -> Int) {
        for index in directives.indices where directives[index].coversNextStatement {
            let first = directives[index].lines.lowerBound
            directives[index].lines = first...max(first, lastLineOfStatement(first))
        }
    }

    /// Whether a finding of `ruleID` at `line` is suppressed; marks the directive used.
    mutating func suppresses(_ ruleID: String, line: Int) -> Bool {
        var suppressed = false
        for index in directives.indices where directives[index].lines.contains(line) {
            for id in directives[index].ruleIDs where id == ruleID || id == "all" {
                directives[index].used.insert(id)
                suppressed = true
            }
        }
        return suppressed
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var result = self
        while let last = result.last, predicate(last) { result = result.dropLast() }
        return result
    }
}
