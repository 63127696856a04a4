import Foundation
import PostgresClient

/// A few PostgreSQL connections shared by the server's request threads: a request takes one
/// (or opens one), uses it alone, and gives it back. A connection found broken is dropped and
/// the request retried once on a fresh one, so a database restart costs no failed page.
/// `@unchecked` because a `PostgresConnection` is not `Sendable` (libpq's handle is used by one
/// thread at a time, which `lock` ensures); a `Mutex` would have to hand connections out as
/// `sending`, and the request's closure keeps them in its region.
final class ConnectionPool: @unchecked Sendable {
    let settings: ConnectionSettings
    let capacity: Int
    // Guarded by `lock`.
    private var idle: [PostgresConnection] = []
    private let lock = NSLock()
    /// Requests wait this long for a database that went away before giving up with 503.
    private let policy = ReconnectPolicy(initialDelay: 0.05, maximumDelay: 0.5, giveUpAfter: 2)

    init(settings: ConnectionSettings, capacity: Int) {
        self.settings = ConnectionPool.withConnectTimeout(settings)
        self.capacity = max(1, capacity)
    }

    /// libpq waits for an unreachable host as long as TCP does unless told otherwise.
    static func withConnectTimeout(_ settings: ConnectionSettings, seconds: Int = 3) -> ConnectionSettings {
        let conninfo = settings.conninfo
        if conninfo.contains("connect_timeout") { return settings }
        if conninfo.hasPrefix("postgres://") || conninfo.hasPrefix("postgresql://") {
            return ConnectionSettings(conninfo: conninfo + (conninfo.contains("?") ? "&" : "?") + "connect_timeout=\(seconds)")
        }
        return ConnectionSettings(conninfo: conninfo + " connect_timeout=\(seconds)")
    }

    func with<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try take()
        do {
            let value = try connection.retryingAfterReconnect(policy: policy, body)
            giveBack(connection)
            return value
        } catch {
            // A statement error leaves the session usable; a lost one is dropped.
            if connection.isConnected { giveBack(connection) }
            throw error
        }
    }

    private func take() throws -> PostgresConnection {
        lock.lock()
        let connection = idle.popLast()
        lock.unlock()
        return try connection ?? PostgresConnection(settings)
    }

    private func giveBack(_ connection: PostgresConnection) {
        lock.lock()
        defer { lock.unlock() }
        if idle.count < capacity { idle.append(connection) }
    }
}

/// A ping of the database with a deadline. At most one probe runs at a time: a probe stuck on a hung
/// server is waited for by later checks (each up to its own deadline), not multiplied.
final class HealthProbe: @unchecked Sendable {
    enum Result: Equatable, Sendable {
        case healthy
        case unhealthy(String)
    }

    private let settings: ConnectionSettings
    // Guarded by `lock`.
    private var inFlight: DispatchGroup?
    private var last: Result = .unhealthy("not checked yet")
    private var connection: PostgresConnection?
    private let lock = NSLock()

    init(settings: ConnectionSettings) {
        self.settings = ConnectionPool.withConnectTimeout(settings)
    }

    func check(timeout: TimeInterval) -> Result {
        lock.lock()
        let group: DispatchGroup
        if let running = inFlight {
            group = running
        } else {
            group = DispatchGroup()
            group.enter()
            inFlight = group
            Thread.detachNewThread { [self] in
                // Only the probe thread touches the kept connection, and one probe runs at a time.
                lock.lock()
                let previous = connection
                connection = nil
                lock.unlock()
                let (result, kept) = probe(previous)
                lock.lock()
                let changed = result != last
                last = result
                connection = kept
                inFlight = nil
                lock.unlock()
                // /healthz answers anyone, so the reason goes to the operator's log instead, once
                // per change rather than once per probe.
                if changed, case .unhealthy(let reason) = result { logHealth(reason) }
                group.leave()
            }
        }
        lock.unlock()
        guard group.wait(timeout: .now() + timeout) == .success else {
            return .unhealthy("the database did not answer a ping within \(timeout) s")
        }
        lock.lock()
        defer { lock.unlock() }
        return last
    }

    private func probe(_ previous: PostgresConnection?) -> (Result, PostgresConnection?) {
        do {
            let connection = try previous.flatMap { $0.isConnected ? $0 : nil } ?? PostgresConnection(settings)
            guard try connection.ping() else {
                return (.unhealthy("the database answered the ping with something else"), nil)
            }
            return (.healthy, connection)
        } catch {
            // DatabaseError names the server and database, never a password.
            return (.unhealthy(String(describing: error)), nil)
        }
    }

    private struct Unhealthy: Error, CustomStringConvertible { let description: String }

    private func logHealth(_ reason: String) { logError("healthz", Unhealthy(description: reason)) }
}
