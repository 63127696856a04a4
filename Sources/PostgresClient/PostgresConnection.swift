import CPostgres
import Foundation

/// One libpq connection, used by one thread at a time. Every value travels as a statement
/// parameter (`PQexecParams`), never spliced into SQL text.
public final class PostgresConnection {
    private var handle: OpaquePointer?
    public let settings: ConnectionSettings
    /// Channels this session listens on, listened on again after a reconnect.
    private var channels: [String] = []
    /// Server notices are dropped (they would go to stderr) unless this is set; then they are
    /// kept for `takeNotices()` (the benchmarks read auto_explain's plans this way).
    public var keepsNotices = false
    private var notices: [String] = []

    /// The notices kept since the last call.
    public func takeNotices() -> [String] {
        defer { notices = [] }
        return notices
    }

    /// Connects now; throws `DatabaseError.connectionFailed` naming the server, never the password.
    public init(_ settings: ConnectionSettings) throws {
        self.settings = settings
        try open()
    }

    deinit { if let handle { PQfinish(handle) } }

    public var isConnected: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// The server's process id for this session: lets tests and operators tell sessions apart.
    public var backendPID: Int32 { handle.map { PQbackendPID($0) } ?? 0 }

    private func open() throws {
        if let handle { PQfinish(handle); self.handle = nil }
        let connection = PQconnectdb(settings.conninfo)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let reason = connection.map { errorMessage($0) } ?? "out of memory"
            if let connection { PQfinish(connection) }
            throw DatabaseError.connectionFailed(target: settings.redactedTarget, reason: reason)
        }
        // Server notices ("relation already exists, skipping") would otherwise go to stderr. The
        // handle is finished in deinit, so it never calls back into a released connection.
        PQsetNoticeProcessor(connection, { context, message in
            guard let context, let message else { return }
            let owner = Unmanaged<PostgresConnection>.fromOpaque(context).takeUnretainedValue()
            if owner.keepsNotices { owner.notices.append(String(cString: message)) }
        }, Unmanaged.passUnretained(self).toOpaque())
        handle = connection
        // Every statement here is a short read or write; PostgreSQL's JIT compiles a plan when its
        // cost estimate is high, which correlated subplans that never run can make it: measured
        // at 10,000 repositories, the runs list executed in 0.4 ms after 215 ms of compiling.
        try query("SET jit = off", purpose: "turn JIT compilation off for this session")
        // A new session has no LISTENs: the old session's are repeated, so waking on NOTIFY
        // survives a server restart.
        for channel in channels { try query("LISTEN \(channel)", purpose: "listen on \(channel) again") }
    }

    /// Reconnects after the server went away (restart, failover, idle timeout), waiting with
    /// exponential backoff up to `policy.giveUpAfter` seconds in all.
    public func reconnect(policy: ReconnectPolicy = ReconnectPolicy()) throws {
        var delay = policy.initialDelay
        let deadline = Date().addingTimeInterval(policy.giveUpAfter)
        while true {
            do {
                try open()
                return
            } catch let error as DatabaseError {
                guard Date() < deadline else { throw error }
                Thread.sleep(forTimeInterval: delay * Double.random(in: 0.5...1.0))
                delay = min(delay * 2, policy.maximumDelay)
            }
        }
    }

    /// Runs `body` and, when the connection was lost on the way, reconnects and runs it again.
    /// Only for work that is safe to repeat: a transaction that never committed, or a statement
    /// whose repetition is harmless.
    public func retryingAfterReconnect<T>(policy: ReconnectPolicy = ReconnectPolicy(),
                                          _ body: (PostgresConnection) throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(policy.giveUpAfter)
        while true {
            do {
                if !isConnected { try reconnect(policy: policy) }
                return try body(self)
            } catch let error as DatabaseError where error.isConnectionLoss && Date() < deadline {
                try reconnect(policy: policy)
            }
        }
    }

    // MARK: Statements

    /// Whether the server answers a trivial statement (`SELECT 1`) with what it should.
    public func ping() throws -> Bool {
        try query("SELECT 1 AS one", purpose: "check that the database answers").first?.int("one") == 1
    }

    /// Runs one statement with its parameters and returns every row, as text, copied out of libpq.
    @discardableResult
    public func query(_ sql: String, _ parameters: [PostgresValue] = [], purpose: String) throws -> PostgresRows {
        guard let handle else { throw DatabaseError.connectionLost(purpose: purpose, reason: "not connected") }
        let encoded = try parameters.map { try $0.encoded(purpose: purpose) }
        let result: OpaquePointer? = withParameterPointers(encoded) { values, lengths, formats in
            PQexecParams(handle, sql, Int32(encoded.count), nil, values, lengths, formats, 0)
        }
        guard let result else {
            throw DatabaseError.connectionLost(purpose: purpose, reason: errorMessage(handle))
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PostgresRows(result)
        default:
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? errorMessage(handle)
            let detail = PQresultErrorField(result, Int32(UInt8(ascii: "D"))).map { String(cString: $0) }
            if PQstatus(handle) != CONNECTION_OK || DatabaseError.connectionLossStates.contains(where: { sqlState?.hasPrefix($0) == true }) {
                throw DatabaseError.connectionLost(purpose: purpose, reason: message)
            }
            throw DatabaseError.statementFailed(purpose: purpose, sqlState: sqlState, message: message, detail: detail)
        }
    }

    /// Runs statements that take no parameters (a migration file: several statements at once).
    public func executeScript(_ sql: String, purpose: String) throws {
        guard let handle else { throw DatabaseError.connectionLost(purpose: purpose, reason: "not connected") }
        guard let result = PQexec(handle, sql) else {
            throw DatabaseError.connectionLost(purpose: purpose, reason: errorMessage(handle))
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = errorMessage(handle)
            if PQstatus(handle) != CONNECTION_OK { throw DatabaseError.connectionLost(purpose: purpose, reason: message) }
            throw DatabaseError.statementFailed(purpose: purpose, sqlState: sqlState, message: message, detail: nil)
        }
    }

    /// BEGIN … COMMIT around `body`; any error rolls back and is rethrown.
    public func transaction<T>(purpose: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        try query("BEGIN", purpose: "\(purpose) (begin)")
        do {
            let value = try body(self)
            try query("COMMIT", purpose: "\(purpose) (commit)")
            return value
        } catch {
            if isConnected { _ = try? query("ROLLBACK", purpose: "\(purpose) (rollback)") }
            throw error
        }
    }

    // MARK: LISTEN / NOTIFY

    public func listen(_ channel: String) throws {
        // ASCII only: Character.isLetter and isNumber take every script's letters and digits.
        func allowed(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        guard !channel.isEmpty, channel.utf8.allSatisfy(allowed) else {
            throw DatabaseError.invalidParameter(purpose: "listen", reason: "channel name \(channel.debugDescription) must be ASCII letters, digits and _")
        }
        // LISTEN takes an identifier, not a parameter; the name was checked above.
        try query("LISTEN \(channel)", purpose: "listen on \(channel)")
        if !channels.contains(channel) { channels.append(channel) }
    }

    public func notify(_ channel: String, payload: String = "") throws {
        try query("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)], purpose: "notify \(channel)")
    }

    /// Waits until a notification arrives or `timeout` passes; returns what arrived (maybe none).
    public func waitForNotifications(timeout: TimeInterval) throws -> [PostgresNotification] {
        guard let handle else { throw DatabaseError.connectionLost(purpose: "wait for notifications", reason: "not connected") }
        var notifications = drainNotifications(handle)
        if !notifications.isEmpty { return notifications }
        let socket = PQsocket(handle)
        guard socket >= 0 else { throw DatabaseError.connectionLost(purpose: "wait for notifications", reason: "no socket") }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(0, timeout) * 1000))
        if ready > 0 {
            guard PQconsumeInput(handle) == 1 else {
                throw DatabaseError.connectionLost(purpose: "wait for notifications", reason: errorMessage(handle))
            }
            notifications = drainNotifications(handle)
        }
        return notifications
    }

    private func drainNotifications(_ handle: OpaquePointer) -> [PostgresNotification] {
        var notifications: [PostgresNotification] = []
        _ = PQconsumeInput(handle)
        while let notify = PQnotifies(handle) {
            notifications.append(PostgresNotification(channel: String(cString: notify.pointee.relname),
                                                      payload: String(cString: notify.pointee.extra)))
            PQfreemem(notify)
        }
        return notifications
    }

    /// libpq's last error on `handle`. It can quote the connection string, password and all, so
    /// it is redacted here, the one place every libpq error passes through.
    private func errorMessage(_ handle: OpaquePointer) -> String {
        guard let message = PQerrorMessage(handle) else { return "unknown error" }
        return settings.redact(String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

public struct PostgresNotification: Sendable, Equatable {
    public let channel: String
    public let payload: String
}

public struct ReconnectPolicy: Sendable {
    public var initialDelay: TimeInterval
    public var maximumDelay: TimeInterval
    public var giveUpAfter: TimeInterval
    public init(initialDelay: TimeInterval = 0.1, maximumDelay: TimeInterval = 5, giveUpAfter: TimeInterval = 120) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.giveUpAfter = giveUpAfter
    }
}

/// Hands libpq C arrays of parameter values without copying each one twice.
private func withParameterPointers<R>(_ parameters: [EncodedParameter],
                                      _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R) -> R {
    if parameters.isEmpty { return body(nil, nil, nil) }
    let storage: [UnsafeMutablePointer<CChar>?] = parameters.map { parameter in
        guard let bytes = parameter.bytes else { return nil }
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1) + 1)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { source in
                if let base = source.baseAddress { pointer.update(from: base, count: bytes.count) }
            }
        }
        pointer[bytes.count] = 0
        return pointer
    }
    defer { storage.forEach { $0?.deallocate() } }
    let lengths = parameters.map { Int32($0.bytes?.count ?? 0) }
    let formats = parameters.map { $0.isBinary ? Int32(1) : Int32(0) }
    let values = storage.map { UnsafePointer($0) }
    return values.withUnsafeBufferPointer { valuePointer in
        lengths.withUnsafeBufferPointer { lengthPointer in
            formats.withUnsafeBufferPointer { formatPointer in
                body(valuePointer.baseAddress, lengthPointer.baseAddress, formatPointer.baseAddress)
            }
        }
    }
}
