/// A unified diff (`diff -u`, as `git diff` prints it) of two versions of one file, from a line
/// diff by Myers' algorithm.
public enum UnifiedDiff {
    /// `""` when the texts are the same. `path` is named `a/path` and `b/path`.
    public static func render(old: String, new: String, path: String, context: Int = 3) -> String {
        let before = lines(old), after = lines(new)
        let operations = script(before, after)
        guard operations.contains(where: { if case .same = $0 { false } else { true } }) else { return "" }
        var out = "--- a/\(path)\n+++ b/\(path)\n"
        for hunk in hunks(operations, context: context) {
            // The lines of each file before the hunk: where it starts.
            let oldLine = operations[..<hunk.lowerBound].filter { if case .added = $0 { false } else { true } }.count
            let newLine = operations[..<hunk.lowerBound].filter { if case .removed = $0 { false } else { true } }.count
            var oldCount = 0, newCount = 0
            var body = ""
            for operation in operations[hunk] {
                switch operation {
                case .same(let index, _):
                    oldCount += 1
                    newCount += 1
                    body += " " + text(before[index])
                case .removed(let index):
                    oldCount += 1
                    body += "-" + text(before[index])
                case .added(let index):
                    newCount += 1
                    body += "+" + text(after[index])
                }
            }
            // A range of no lines is named by the line before it.
            out += "@@ -\(range(oldCount == 0 ? oldLine : oldLine + 1, oldCount)) +\(range(newCount == 0 ? newLine : newLine + 1, newCount)) @@\n" + body
        }
        return out
    }

    struct Line: Equatable {
        let text: Substring
        /// The file's last line, with no line break after it.
        let unterminated: Bool
    }

    enum Operation: Equatable {
        /// Line `old` of the old file is line `new` of the new one.
        case same(Int, Int)
        case removed(Int)
        case added(Int)
    }

    static func lines(_ text: String) -> [Line] {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        let terminated = parts.last == ""
        if terminated { parts.removeLast() }
        return parts.enumerated().map { Line(text: $0.element, unterminated: !terminated && $0.offset == parts.count - 1) }
    }

    static func text(_ line: Line) -> String {
        line.text + "\n" + (line.unterminated ? "\\ No newline at end of file\n" : "")
    }

    static func range(_ start: Int, _ count: Int) -> String { count == 1 ? "\(start)" : "\(start),\(count)" }

    /// The shortest edit script from `a` to `b` (Myers, 1986), as one operation per line.
    static func script(_ a: [Line], _ b: [Line]) -> [Operation] {
        // Common ends need no search: the edits of a fix are few and close together.
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let n = a.count - prefix - suffix, m = b.count - prefix - suffix
        var middle: [Operation] = []
        if n == 0 || m == 0 {
            middle = (0..<n).map { .removed(prefix + $0) } + (0..<m).map { .added(prefix + $0) }
        } else {
            let offset = n + m + 1
            var v = [Int](repeating: 0, count: 2 * offset + 1)
            var trace: [[Int]] = []
            search: for d in 0...(n + m) {
                trace.append(v)
                for k in stride(from: -d, through: d, by: 2) {
                    var x = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1
                    var y = x - k
                    while x < n, y < m, a[prefix + x] == b[prefix + y] { x += 1; y += 1 }
                    v[offset + k] = x
                    if x >= n, y >= m { break search }
                }
            }
            var x = n, y = m
            for d in stride(from: trace.count - 1, through: 0, by: -1) {
                let v = trace[d], k = x - y
                let previousK = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) ? k + 1 : k - 1
                let previousX = v[offset + previousK], previousY = previousX - previousK
                while x > previousX, y > previousY {
                    x -= 1; y -= 1
                    middle.append(.same(prefix + x, prefix + y))
                }
                if d > 0 { middle.append(x == previousX ? .added(prefix + y - 1) : .removed(prefix + x - 1)) }
                x = previousX
                y = previousY
            }
            middle.reverse()
        }
        return (0..<prefix).map { .same($0, $0) } + middle
            + (0..<suffix).map { .same(a.count - suffix + $0, b.count - suffix + $0) }
    }

    /// The operations around each change, `context` unchanged lines either side; changes closer
    /// than twice that share a hunk.
    static func hunks(_ operations: [Operation], context: Int) -> [Range<Int>] {
        let changes = operations.indices.filter { if case .same = operations[$0] { false } else { true } }
        var hunks: [Range<Int>] = []
        var start = 0, end = 0, open = false
        for index in changes {
            if open, index - end <= 2 * context {
                end = index + 1
                continue
            }
            if open { hunks.append(max(0, start - context)..<min(operations.count, end + context)) }
            start = index
            end = index + 1
            open = true
        }
        if open { hunks.append(max(0, start - context)..<min(operations.count, end + context)) }
        return hunks
    }
}
