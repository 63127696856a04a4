import Foundation
import PostgresClient
import Synchronization

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
/// server is waited for by later checks (each up to its own deadline), not multiplied. Probes run
/// on one thread of their own, which alone holds the kept connection (a local of that thread, so
/// the compiler sees it never crosses threads).
final class HealthProbe: Sendable {
    enum Result: Equatable, Sendable {
        case healthy
        case unhealthy(String)
    }

    private struct State {
        /// The probe under way; checks that come while it runs wait for it.
        var inFlight: DispatchGroup?
        var last: Result = .unhealthy("not checked yet")
        var started = false
    }

    private let settings: ConnectionSettings
    private let state = Mutex(State())
    /// One signal per probe asked of the probe thread; one more from deinit lets it end.
    private let requests = DispatchSemaphore(value: 0)

    init(settings: ConnectionSettings) {
        self.settings = ConnectionPool.withConnectTimeout(settings)
    }

    deinit { requests.signal() }

    func check(timeout: TimeInterval) -> Result {
        let (group, isNew, startThread) = state.withLock { state -> (DispatchGroup, Bool, Bool) in
            if let running = state.inFlight { return (running, false, false) }
            let group = DispatchGroup()
            group.enter()
            state.inFlight = group
            defer { state.started = true }
            return (group, true, !state.started)
        }
        if startThread { startProbeThread() }
        if isNew { requests.signal() }
        guard group.wait(timeout: .now() + timeout) == .success else {
            return .unhealthy("the database did not answer a ping within \(timeout) s")
        }
        return state.withLock { $0.last }
    }

    private func startProbeThread() {
        let requests = self.requests
        Thread.detachNewThread { [weak self] in
            var connection: PostgresConnection?
            while true {
                requests.wait()
                guard let self else { return }
                let (result, kept) = self.probe(connection)
                connection = kept
                let (changed, group) = self.state.withLock { state -> (Bool, DispatchGroup?) in
                    let changed = result != state.last
                    state.last = result
                    defer { state.inFlight = nil }
                    return (changed, state.inFlight)
                }
                // /healthz answers anyone, so the reason goes to the operator's log instead, once
                // per change rather than once per probe.
                if changed, case .unhealthy(let reason) = result { self.logHealth(reason) }
                group?.leave()
            }
        }
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
