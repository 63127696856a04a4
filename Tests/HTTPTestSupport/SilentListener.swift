import Foundation
import Synchronization

/// A TCP port on 127.0.0.1 that accepts connections and never says a word: a hung server, as
/// a client sees one. Counts the connections it accepted; closes them all on `close()`.
public final class SilentListener: Sendable {
    public let port: UInt16
    private let socket: Int32
    private let accepted = Mutex<[Int32]>([])

    public init() throws {
        let fd = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SilentListenerError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 64) == 0
                && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { Foundation.close(fd); throw SilentListenerError("bind or listen: errno \(errno)") }
        socket = fd
        port = UInt16(bigEndian: address.sin_port)
        // Ends when close() shuts the socket down and accept fails.
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { if errno == EINTR { continue }; return }
                accepted.withLock { $0.append(client) }
            }
        }
    }

    /// Connections accepted so far.
    public var connections: Int { accepted.withLock { $0.count } }

    public func close() {
        shutdown(socket, Int32(SHUT_RDWR))
        Foundation.close(socket)
        accepted.withLock { clients in clients.forEach { _ = Foundation.close($0) }; clients = [] }
    }
}

public struct SilentListenerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
