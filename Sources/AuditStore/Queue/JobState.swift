import Foundation

public enum JobKind: String, Sendable, Codable, CaseIterable { case nightly, manual, pr }

/// A job's place in its lifecycle. The only spelling of the states: SQL text is built from these
/// cases (`sql`, `sqlList`), never typed out.
///
///     queued ──claim──▶ running ──succeed──▶ succeeded
///       ▲                 │ │ └──fail──▶ failed (retry after backoff) ──claim──▶ running
///       └────release──────┘ └────fail──▶ dead (no attempt left, or not worth retrying)
///     queued, failed, running ──cancel──▶ cancelled
public enum JobState: String, Sendable, Codable, CaseIterable {
    case queued, running, succeeded, failed, dead, cancelled

    public var isTerminal: Bool { self == .succeeded || self == .dead || self == .cancelled }

    /// Waiting to be claimed: at most one such job per repository, commit and kind (the partial
    /// unique index of migration 0001 has this predicate).
    public static let waiting: [JobState] = [.queued, .failed]
    /// Not finished: still to be claimed or being worked on.
    public static let unfinished: [JobState] = [.queued, .running, .failed]

    /// The state as an SQL literal: `'queued'`.
    public var sql: String { "'\(rawValue)'" }

    /// States as an SQL list for `IN`: `('queued', 'failed')`.
    public static func sqlList(_ states: [JobState]) -> String {
        "(" + states.map(\.sql).joined(separator: ", ") + ")"
    }
}
