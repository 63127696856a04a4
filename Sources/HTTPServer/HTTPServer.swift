import CMicroHTTPD
import Foundation
import Synchronization

public enum HTTPServerError: Error, CustomStringConvertible {
    case invalidAddress(String)
    case startFailed(host: String, port: UInt16, reason: String)

    public var description: String {
        switch self {
        case .invalidAddress(let host):
            "\(host): not an IPv4 or IPv6 address to listen on (give a numeric address such as 127.0.0.1 or ::1)"
        case .startFailed(let host, let port, let reason):
            "cannot listen on \(host):\(port == 0 ? "any free port" : String(port)) (\(reason))"
        }
    }
}

public struct HTTPServerOptions: Sendable {
    /// Numeric address to bind; loopback unless the caller asks otherwise.
    public var host: String
    /// 0 picks a free port; `HTTPServer.port` tells which.
    public var port: UInt16
    /// Requests served at once (libmicrohttpd's internal thread pool).
    public var threads: Int
    /// The largest body any request may send; an admission callback may allow less per request.
    /// Larger bodies get 413 without reaching the handler.
    public var maxBodyBytes: Int
    /// What the bodies being received at once may hold in memory together (never less than
    /// `maxBodyBytes`): a body that would take more is answered 503 with `Retry-After` instead.
    public var maxBufferedBodyBytes: Int
    /// A connection that sends nothing for this long is closed (libmicrohttpd's own timeout:
    /// every byte restarts it, so it alone cannot stop a client that trickles).
    public var connectionTimeoutSeconds: Int
    /// A request's whole header must arrive within this long, however steadily its bytes come:
    /// counted from the connection's start, or on a kept-alive connection from the end of the
    /// previous answer. Past it the connection is closed.
    public var headerDeadlineSeconds: Double
    /// A body must arrive within this long after its header, plus one second per
    /// `minimumBodyBytesPerSecond` bytes it announces (its limit when it is sent chunked).
    public var bodyDeadlineSeconds: Double
    public var minimumBodyBytesPerSecond: Int
    /// Connections open at once; more clients wait in the listen queue until one closes.
    /// Capped at the process's open-file limit less what the rest of the process needs.
    public var maxConnections: Int
    /// Connections open at once from one IP address; more are closed as soon as they are
    /// accepted. 0: no limit (behind a reverse proxy every client has the proxy's address).
    public var maxConnectionsPerIP: Int

    public init(host: String = "127.0.0.1", port: UInt16 = 0, threads: Int = 4, maxBodyBytes: Int = 1 << 20,
                maxBufferedBodyBytes: Int = 64 << 20, connectionTimeoutSeconds: Int = 30, headerDeadlineSeconds: Double = 10,
                bodyDeadlineSeconds: Double = 10, minimumBodyBytesPerSecond: Int = 64 << 10, maxConnections: Int = 1000,
                maxConnectionsPerIP: Int = 64) {
        self.host = host
        self.port = port
        self.threads = max(1, threads)
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.maxBufferedBodyBytes = max(0, maxBufferedBodyBytes)
        self.connectionTimeoutSeconds = max(1, connectionTimeoutSeconds)
        self.headerDeadlineSeconds = max(0.01, headerDeadlineSeconds)
        self.bodyDeadlineSeconds = max(0.01, bodyDeadlineSeconds)
        self.minimumBodyBytesPerSecond = max(1, minimumBodyBytesPerSecond)
        self.maxConnections = max(1, maxConnections)
        self.maxConnectionsPerIP = max(0, maxConnectionsPerIP)
    }
}

/// What to do with a request's body, decided from its header before any of the body is read.
public enum HTTPBodyAdmission: Sendable {
    /// Read a body of up to this many bytes (0: none), then call the handler.
    case accept(maxBodyBytes: Int)
    /// Answer this at once. The body is never read; the connection closes after the answer.
    case refuse(HTTPResponse)
}

/// Called when a request's header has arrived and announces a body (`Content-Length` over 0 or
/// `Transfer-Encoding`), with `body` still empty. Routes that take no body, and routes whose
/// credentials are wrong, refuse here, so a body no one wants never reaches memory.
public typealias HTTPAdmission = @Sendable (HTTPRequest) -> HTTPBodyAdmission

public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// A small HTTP/1.1 server over libmicrohttpd: the daemon runs its own thread pool and calls
/// `handler` once per request with the whole body read. Stops on `stop()` or when released.
///
/// Slow clients cannot hold it: connections are limited in all and per IP address, and a
/// reaper thread closes every connection whose header or body is later than its deadline.
public final class HTTPServer: Sendable {
    public let host: String
    /// The port actually bound (the picked one when asked for port 0).
    public let port: UInt16
    /// The running daemon; nil once stopped.
    private let daemon: Mutex<OpaquePointer?>
    private let context: Unmanaged<ServerContext>
    private let reaper: DeadlineReaper

    /// Without `admission`, every request may send up to `options.maxBodyBytes`.
    public init(options: HTTPServerOptions = HTTPServerOptions(), admission: HTTPAdmission? = nil,
                handler: @escaping HTTPHandler) throws {
        var address = try SocketAddress(host: options.host, port: options.port)
        let server = ServerContext(handler: handler, admission: admission, options: options)
        let context = Unmanaged.passRetained(server)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_AUTO.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        // A pool thread with no share of the connections would never accept one.
        let connections = max(options.threads, Self.connectionLimit(options.maxConnections))
        let started: OpaquePointer? = address.withPointer { sockaddrPointer in
            var items = [
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: sockaddrPointer),
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: options.connectionTimeoutSeconds, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: connections, ptr_value: nil),
            ]
            if options.maxConnectionsPerIP > 0 {
                items.append(MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: options.maxConnectionsPerIP, ptr_value: nil))
            }
            if options.threads > 1 {
                items.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: options.threads, ptr_value: nil))
            }
            items.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return items.withUnsafeBufferPointer { buffer in
                a11y_mhd_start(flags, options.port, accessHandler, context.toOpaque(),
                               requestCompleted, context.toOpaque(), connectionNotice, context.toOpaque(), buffer.baseAddress)
            }
        }
        guard let started else {
            let reason = errno != 0 ? String(cString: strerror(errno)) : "libmicrohttpd refused the options"
            context.release()
            throw HTTPServerError.startFailed(host: options.host, port: options.port, reason: reason)
        }
        let bound = a11y_mhd_bound_port(started)
        guard bound != 0 else {
            MHD_stop_daemon(started)
            context.release()
            throw HTTPServerError.startFailed(host: options.host, port: options.port, reason: "the bound port cannot be read")
        }
        self.host = options.host
        self.port = bound
        self.daemon = Mutex(started)
        self.context = context
        // Checking a few times per deadline keeps the cut within a quarter of it.
        let tick = min(0.25, min(options.headerDeadlineSeconds, options.bodyDeadlineSeconds) / 4)
        reaper = DeadlineReaper(deadlines: server.deadlines, tick: tick)
    }

    /// `http://host:port`, with IPv6 hosts in brackets.
    public var baseURL: String {
        host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
    }

    /// Stops listening and waits for requests in flight to finish. Safe to call more than once.
    public func stop() {
        // Stopped under the lock: a second caller waits for the first stop to finish.
        let stopped = daemon.withLock { daemon -> Bool in
            guard let running = daemon else { return false }
            daemon = nil
            MHD_stop_daemon(running)
            return true
        }
        guard stopped else { return }
        reaper.stop()
        context.release()
    }

    deinit { stop() }

    /// The connection limit the process can keep: past its open-file limit, accept() fails and
    /// so does opening a page or a database connection.
    static func connectionLimit(_ requested: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(Int.max) else {
            return requested
        }
        // Descriptors for the rest: the listening socket, the database pool, site files, logs.
        return max(1, min(requested, Int(limit.rlim_cur) - 64))
    }
}

/// What every request of one server shares. Immutable apart from its thread-safe parts, so any
/// pool thread may use it.
private final class ServerContext: Sendable {
    let handler: HTTPHandler
    let admission: HTTPAdmission?
    let maxBodyBytes: Int
    let budget: BodyBudget
    let deadlines = ConnectionDeadlines()
    let headerDeadline: Duration
    let bodyDeadline: Duration
    let minimumBodyBytesPerSecond: Int

    init(handler: @escaping HTTPHandler, admission: HTTPAdmission?, options: HTTPServerOptions) {
        self.handler = handler
        self.admission = admission
        maxBodyBytes = options.maxBodyBytes
        budget = BodyBudget(limit: max(options.maxBufferedBodyBytes, options.maxBodyBytes))
        headerDeadline = .seconds(options.headerDeadlineSeconds)
        bodyDeadline = .seconds(options.bodyDeadlineSeconds)
        minimumBodyBytesPerSecond = options.minimumBodyBytesPerSecond
    }

    /// The header is in and none of the body is read: refuse, or say how much body to read and by when.
    func admit(_ state: RequestState, on connection: OpaquePointer) -> MHD_Result {
        // Late headers are refused even if the reaper has not got to them yet.
        guard deadlines.move(connection, to: nil) else { return .NO }
        func answer(_ response: HTTPResponse) -> MHD_Result {
            state.answered = true
            return queue(response, on: connection)
        }
        let declared = state.head.headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let chunked = state.head.headers["Transfer-Encoding"] != nil
        // Without either there is no body (RFC 9112 §6.3), nothing to admit.
        guard chunked || (declared ?? 0) > 0 else { return .YES }
        switch admission?(state.head) ?? .accept(maxBodyBytes: maxBodyBytes) {
        case .refuse(let response):
            return answer(response)
        case .accept(let routeLimit):
            let limit = min(max(0, routeLimit), maxBodyBytes)
            state.limit = limit
            if let declared, declared > limit { return answer(tooLargeResponse(limit)) }
            if chunked, limit == 0 { return answer(tooLargeResponse(0)) }
            if let declared {
                guard budget.reserve(declared) else { return answer(busyResponse()) }
                state.reserved = declared
                state.body.reserveCapacity(declared)
            }
            let expected = declared ?? limit
            let deadline = ContinuousClock.now + bodyDeadline + .seconds(Double(expected) / Double(minimumBodyBytesPerSecond))
            return deadlines.move(connection, to: deadline) ? .YES : .NO
        }
    }

    /// One piece of the body: kept while within the request's limit and the shared budget,
    /// dropped otherwise (the rest is still read, so the client gets a clean answer).
    func take(_ bytes: UnsafeRawBufferPointer, into state: RequestState) {
        guard !state.answered, state.refusal == nil else { return }
        if state.body.count + bytes.count > state.limit {
            drop(state, refusal: tooLargeResponse(state.limit))
            return
        }
        let missing = state.body.count + bytes.count - state.reserved
        if missing > 0 {
            guard budget.reserve(missing) else {
                drop(state, refusal: busyResponse())
                return
            }
            state.reserved += missing
        }
        state.body.append(contentsOf: bytes)
    }

    private func drop(_ state: RequestState, refusal: HTTPResponse) {
        state.refusal = refusal
        state.body = []
        release(state)
    }

    func release(_ state: RequestState) {
        budget.release(state.reserved)
        state.reserved = 0
    }
}

/// The bytes of request bodies held at once, against one limit for the whole server.
private final class BodyBudget: Sendable {
    let limit: Int
    private let used = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    func reserve(_ bytes: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            guard bytes <= limit - current else { return false }
            let (exchanged, original) = used.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    func release(_ bytes: Int) {
        if bytes > 0 { used.subtract(bytes, ordering: .relaxed) }
    }
}

/// When each open connection must have delivered what it owes (a request's header, or its
/// body), and its socket, to shut down when it has not. libmicrohttpd only knows idle time.
///
/// A socket is shut down only under the lock and only while its entry exists; libmicrohttpd
/// removes the entry (its close notice) before it closes the descriptor, so a descriptor
/// number reused by a newer connection is never touched.
final class ConnectionDeadlines: Sendable {
    private struct Entry {
        let socket: Int32
        /// nil while the handler runs or an answer is being sent.
        var deadline: ContinuousClock.Instant?
        var cut = false
    }

    private let entries = Mutex<[UInt: Entry]>([:])

    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: connection)) }

    func opened(_ connection: OpaquePointer, socket: Int32, deadline: ContinuousClock.Instant) {
        guard socket >= 0 else { return }
        entries.withLock { $0[Self.key(connection)] = Entry(socket: socket, deadline: deadline) }
    }

    func closed(_ connection: OpaquePointer) {
        _ = entries.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    /// Gives the connection a new deadline (nil: none). False when it is already cut or its
    /// current deadline has passed; the caller then refuses the request.
    func move(_ connection: OpaquePointer, to deadline: ContinuousClock.Instant?) -> Bool {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            let key = Self.key(connection)
            guard var entry = entries[key] else { return true }
            if entry.cut || entry.deadline.map({ $0 < now }) == true { return false }
            entry.deadline = deadline
            entries[key] = entry
            return true
        }
    }

    /// Shuts down every connection past its deadline; libmicrohttpd then sees the end of the
    /// stream and closes it. Returns how many were cut.
    @discardableResult
    func cutExpired() -> Int {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            var count = 0
            for (key, entry) in entries where !entry.cut {
                guard let deadline = entry.deadline, deadline < now else { continue }
                shutdown(entry.socket, Int32(SHUT_RDWR))
                entries[key]?.cut = true
                count += 1
            }
            return count
        }
    }
}

/// The thread that enforces the deadlines, a few times a second.
private final class DeadlineReaper: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(deadlines: ConnectionDeadlines, tick: Double) {
        let thread = Thread { [self] in
            while !stopping.load(ordering: .acquiring) {
                _ = wake.wait(timeout: .now() + tick)
                deadlines.cutExpired()
            }
            finished.signal()
        }
        thread.name = "http-deadlines"
        thread.start()
    }

    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        finished.wait()
    }
}

/// One request in progress. libmicrohttpd calls back for a connection on one thread at a
/// time, so this needs no lock; it lives from the first callback to the completion notice.
private final class RequestState {
    /// Method, path, query and header fields; the body is kept apart until it is complete.
    let head: HTTPRequest
    var body: [UInt8] = []
    var limit = 0
    /// Bytes of the shared budget this request holds.
    var reserved = 0
    /// Set when the body went over the limit or the budget: sent once the rest is read.
    var refusal: HTTPResponse?
    var answered = false

    init(head: HTTPRequest) { self.head = head }
}

/// A chunked body being sent: the producer's chunks, handed out in pieces as large as libmicrohttpd asks.
private final class StreamState {
    let produce: @Sendable () -> [UInt8]?
    var pending: [UInt8] = []
    var offset = 0

    init(produce: @escaping @Sendable () -> [UInt8]?) { self.produce = produce }
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let cls, let connection, let uploadSize, let requestContext else { return .NO }
    let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    guard let stateRaw = requestContext.pointee else {
        // First call: the header only.
        let head = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "GET",
            path: url.map { String(cString: $0) } ?? "/",
            query: Dictionary(connectionValues(connection, .GET_ARGUMENT_KIND).map { ($0.name, $0.value) },
                              uniquingKeysWith: { _, last in last }),
            headers: HTTPHeaders(connectionValues(connection, .HEADER_KIND).map { HeaderField(name: $0.name, value: $0.value) }))
        let state = RequestState(head: head)
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
        return server.admit(state, on: connection)
    }
    let state = Unmanaged<RequestState>.fromOpaque(stateRaw).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if let uploadData { server.take(UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee), into: state) }
        uploadSize.pointee = 0
        return .YES
    }
    if state.answered { return .YES }
    state.answered = true
    // The body is complete (or there was none): no deadline while the handler runs.
    guard server.deadlines.move(connection, to: nil) else { return .NO }
    if let refusal = state.refusal { return queue(refusal, on: connection) }
    var request = state.head
    request.body = state.body
    state.body = []
    let response = server.handler(request)
    server.release(state)
    return queue(response, on: connection)
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, requestContext, _ in
    guard let cls else { return }
    let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    if let requestContext, let raw = requestContext.pointee {
        server.release(Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue())
        requestContext.pointee = nil
    }
    // On a kept-alive connection the next request's header is owed from now.
    if let connection { _ = server.deadlines.move(connection, to: .now + server.headerDeadline) }
}

private let connectionNotice: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection else { return }
    let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED {
        server.deadlines.opened(connection, socket: a11y_mhd_connection_socket(connection), deadline: .now + server.headerDeadline)
    } else {
        server.deadlines.closed(connection)
    }
}

private func tooLargeResponse(_ limit: Int) -> HTTPResponse {
    limit == 0 ? .text("this address takes no request body\n", status: 413)
        : .text("request body is over the \(limit)-byte limit\n", status: 413)
}

private func busyResponse() -> HTTPResponse {
    var response = HTTPResponse.text("the server is receiving too many request bodies at once; send this one again in a few seconds\n",
                                     status: 503)
    response.headers.set("Retry-After", "5")
    return response
}

private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let made: OpaquePointer?
    if let file = response.file {
        // libmicrohttpd closes the descriptor when the response is destroyed (sent or not).
        made = MHD_create_response_from_fd_at_offset64(UInt64(file.size), file.descriptor, UInt64(file.offset))
        if made == nil { close(file.descriptor) }
    } else if let produce = response.stream {
        let stream = Unmanaged.passRetained(StreamState(produce: produce))
        made = MHD_create_response_from_callback(UInt64.max, 32 * 1024, streamReader, stream.toOpaque(), streamFree)
        if made == nil { stream.release() }
    } else {
        made = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
    }
    guard let made else { return .NO }
    defer { MHD_destroy_response(made) }
    for field in response.headers {
        // libmicrohttpd writes the framing headers itself.
        let lowered = field.name.lowercased()
        if lowered == "content-length" || lowered == "transfer-encoding" { continue }
        _ = MHD_add_response_header(made, field.name, field.value)
    }
    return MHD_queue_response(connection, UInt32(clamping: response.status), made)
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
    guard let cls, let buffer else { return -2 }                // end with error
    let stream = Unmanaged<StreamState>.fromOpaque(cls).takeUnretainedValue()
    while stream.offset >= stream.pending.count {
        guard let next = stream.produce() else { return -1 }    // end of stream
        stream.pending = next
        stream.offset = 0
    }
    let count = min(capacity, stream.pending.count - stream.offset)
    stream.pending.withUnsafeBytes { bytes in
        guard let base = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(buffer).copyMemory(from: base + stream.offset, byteCount: count)
    }
    stream.offset += count
    return count
}

private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<StreamState>.fromOpaque(cls).release()
}

private func connectionValues(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(name: String, value: String)] {
    var pairs: [(name: String, value: String)] = []
    withUnsafeMutablePointer(to: &pairs) { pointer in
        _ = MHD_get_connection_values(connection, kind, { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let pairs = cls.assumingMemoryBound(to: [(name: String, value: String)].self)
            pairs.pointee.append((name: String(cString: key), value: value.map { String(cString: $0) } ?? ""))
            return .YES
        }, pointer)
    }
    return pairs
}

private func connectionValue(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ name: String) -> String? {
    MHD_lookup_connection_value(connection, kind, name).map { String(cString: $0) }
}

/// A numeric IPv4 or IPv6 listening address.
private struct SocketAddress {
    private var v4 = sockaddr_in()
    private var v6 = sockaddr_in6()
    let isIPv6: Bool

    init(host: String, port: UInt16) throws {
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            isIPv6 = false
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            isIPv6 = true
        } else {
            throw HTTPServerError.invalidAddress(host)
        }
    }

    mutating func withPointer<T>(_ body: (UnsafeMutableRawPointer) -> T) -> T {
        if isIPv6 { return withUnsafeMutablePointer(to: &v6) { body(UnsafeMutableRawPointer($0)) } }
        return withUnsafeMutablePointer(to: &v4) { body(UnsafeMutableRawPointer($0)) }
    }
}
