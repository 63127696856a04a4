import Foundation

/// A plain TCP connection for the tests that must control exactly what is sent and when, which
/// libcurl will not do: a header trickled a byte at a time, a header announcing a body that never
/// follows, a chosen source address (another "client" on loopback: 127.0.0.2 and up all reach a
/// server on 127.0.0.1 under Linux).
public final class RawConnection {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let descriptor: Int32

    public init(port: UInt16, host: String = "127.0.0.1", source: String? = nil) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw Failure(description: "bind to \(source): \(reason)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "connect to \(host):\(port): \(reason)")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Sends every byte; false once the peer has closed or reset the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends as much of `bytes` as the connection takes within `seconds`; returns how many
    /// went out before the peer closed or reset it (or the time ran out).
    public func sendUntilRefused(_ bytes: [UInt8], seconds: Double) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var sent = 0
        while sent < bytes.count, Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { break }
            if poller.revents & Int16(POLLERR | POLLHUP) != 0 { break }
            guard poller.revents & Int16(POLLOUT) != 0 else { continue }
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, min($0.count, 64 * 1024), Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { break }
            sent += count
        }
        return sent
    }

    public enum Received: Equatable {
        case bytes([UInt8])
        /// The peer closed (end of stream) or reset the connection.
        case closed
        case timedOut
    }

    /// What arrives within `seconds`: some bytes, the end of the connection, or nothing.
    public func receive(seconds: Double) -> Received {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, Int32(max(0, seconds * 1000)))
        guard ready > 0 else { return .timedOut }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? .bytes(Array(buffer[0..<count])) : .closed
    }

    /// True when the peer has closed or reset the connection (checked without waiting or
    /// consuming anything but the end of the stream).
    public var isClosedByPeer: Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        if poller.revents & Int16(POLLERR | POLLHUP) != 0 { return true }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Everything the peer sends within `seconds`, until it closes the connection or, once a
    /// whole response header and `Content-Length` body have arrived, at once.
    public func readResponse(seconds: Double) -> RawResponse? {
        let deadline = Date().addingTimeInterval(seconds)
        var bytes: [UInt8] = []
        while Date() < deadline {
            if let response = RawResponse(bytes), response.isComplete { return response }
            switch receive(seconds: max(0, deadline.timeIntervalSinceNow)) {
            case .bytes(let more): bytes += more
            case .closed: return RawResponse(bytes)
            case .timedOut: return RawResponse(bytes)
            }
        }
        return RawResponse(bytes)
    }
}

/// A response as it arrived on a raw connection.
public struct RawResponse: Sendable {
    public let status: Int
    public let headerLines: [String]
    public let body: [UInt8]
    let declaredLength: Int?

    init?(_ bytes: [UInt8]) {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/"), let status = Int(statusParts[1]) else { return nil }
        self.status = status
        headerLines = Array(lines.dropFirst())
        body = Array(bytes[(end + 4)...])
        declaredLength = headerLines.first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
    }

    var isComplete: Bool { declaredLength.map { body.count >= $0 } ?? false }

    public func header(_ name: String) -> String? {
        let prefix = name.lowercased() + ":"
        return headerLines.first { $0.lowercased().hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces) }
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Sends a POST with a chunked body (no Content-Length), which libcurl's easy API cannot do
/// without a read callback, and returns the response's status line.
public func sendChunked(port: UInt16, path: String, chunks: [[UInt8]]) throws -> String {
    let connection = try RawConnection(port: port)
    var message = Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".utf8)
    for chunk in chunks {
        message += Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Array("\r\n".utf8)
    }
    message += Array("0\r\n\r\n".utf8)
    // The server may answer and close before reading everything.
    connection.send(message)
    var response: [UInt8] = []
    while case .bytes(let more) = connection.receive(seconds: 20) { response += more }
    return String(decoding: response, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
}
