import CPostgres
import Foundation

/// What went wrong talking to PostgreSQL, naming what we were trying to do. Messages carry the
/// server and database, never a password.
public enum DatabaseError: Error, CustomStringConvertible, Equatable {
    case connectionFailed(target: String, reason: String)
    case connectionLost(purpose: String, reason: String)
    case statementFailed(purpose: String, sqlState: String?, message: String, detail: String?)
    case invalidParameter(purpose: String, reason: String)
    case unexpectedResult(purpose: String, reason: String)

    /// SQLSTATE classes that mean the session is gone: connection exceptions, and the server
    /// shutting down or starting up.
    static let connectionLossStates = ["08", "57P01", "57P02", "57P03"]

    public var isConnectionLoss: Bool {
        switch self {
        case .connectionLost, .connectionFailed: return true
        default: return false
        }
    }

    public var sqlState: String? {
        if case .statementFailed(_, let state, _, _) = self { return state }
        return nil
    }

    /// Serialization failures and deadlocks: the transaction can simply be run again.
    public var isTransient: Bool { isConnectionLoss || sqlState == "40001" || sqlState == "40P01" }

    public var description: String {
        switch self {
        case .connectionFailed(let target, let reason):
            return "cannot connect to PostgreSQL at \(target): \(reason) (set DATABASE_URL or the PG* variables)"
        case .connectionLost(let purpose, let reason):
            return "lost the PostgreSQL connection while trying to \(purpose): \(reason)"
        case .statementFailed(let purpose, let state, let message, let detail):
            return "PostgreSQL could not \(purpose): \(message)" + (detail.map { " (\($0))" } ?? "")
                + (state.map { " [SQLSTATE \($0)]" } ?? "")
        case .invalidParameter(let purpose, let reason):
            return "cannot \(purpose): \(reason)"
        case .unexpectedResult(let purpose, let reason):
            return "unexpected answer from PostgreSQL while trying to \(purpose): \(reason)"
        }
    }
}

/// Where to connect: `DATABASE_URL` (a libpq URI or key=value string) or, when empty, libpq's own
/// PG* variables and defaults. Printed, it shows the string with its password masked
/// (ConnectionSecrets.swift).
public struct ConnectionSettings: Sendable, Equatable {
    public let conninfo: String

    public init(conninfo: String) { self.conninfo = conninfo }

    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ConnectionSettings {
        ConnectionSettings(conninfo: environment["DATABASE_URL"] ?? "")
    }

    /// `user@host:port/dbname`, as libpq would resolve it, without the password.
    public var redactedTarget: String {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &error) else {
            if let error { PQfreemem(error) }
            return "(unparseable connection string)"
        }
        defer { PQconninfoFree(options) }
        var fields: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { fields[String(cString: keyword)] = String(cString: value) }
            option = option.advanced(by: 1)
        }
        let environment = ProcessInfo.processInfo.environment
        // A password with an unencoded "@" or "/" spills into the host or port field.
        let host = fields["host"].map(redactedField) ?? environment["PGHOST"] ?? "localhost"
        let port = fields["port"].map(redactedField) ?? environment["PGPORT"] ?? "5432"
        let user = fields["user"].map(redactedField) ?? environment["PGUSER"] ?? "(default user)"
        let database = fields["dbname"].map(redactedField) ?? environment["PGDATABASE"] ?? user
        return "\(user)@\(host):\(port)/\(database)"
    }

    /// The same settings pointed at another database on the same server.
    public func database(_ name: String) -> ConnectionSettings {
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
        // libpq lets a later keyword override an earlier one; a URI takes `dbname` after `?`.
        if conninfo.hasPrefix("postgres://") || conninfo.hasPrefix("postgresql://") {
            let separator = conninfo.contains("?") ? "&" : "?"
            let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
            return ConnectionSettings(conninfo: conninfo + separator + "dbname=" + encoded)
        }
        return ConnectionSettings(conninfo: conninfo + " dbname='\(escaped)'")
    }
}
