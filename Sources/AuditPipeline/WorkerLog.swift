import Foundation

/// One line per event, `key=value` pairs (logfmt): greppable, and read as structured data by
/// log collectors (Loki, Vector, journald's field matching).
public struct WorkerLog: Sendable {
    public enum Level: String, Sendable { case info, warn, error }

    let write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }) {
        self.write = write
    }

    public static let silent = WorkerLog { _ in }

    public func event(_ name: String, _ fields: [(String, (any CustomStringConvertible)?)] = []) {
        event(name, .info, fields)
    }

    public func event(_ name: String, _ level: Level, _ fields: [(String, (any CustomStringConvertible)?)]) {
        var line = "time=\(Self.timestamp()) level=\(level.rawValue) event=\(name)"
        for (key, value) in fields {
            guard let value else { continue }
            line += " \(key)=\(Self.quoted(value.description))"
        }
        write(line)
    }

    static func quoted(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }
}
