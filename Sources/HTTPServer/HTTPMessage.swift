@_exported import HTTPFields

/// The server's name for the shared header fields (arrival order, lookups without case).
public typealias HTTPHeaders = HeaderFields

public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query string, percent-decoded.
    public var path: String
    /// Query arguments, decoded; for a repeated name the last value wins.
    public var query: [String: String]
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(method: String, path: String, query: [String: String] = [:], headers: HTTPHeaders = HTTPHeaders(),
                body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    /// Sent with a Content-Length, unless `stream` is set.
    public var body: [UInt8]
    /// Produces the body chunk by chunk until it returns nil; sent without a Content-Length
    /// (chunked). Runs on the server's thread for that connection, so it may block.
    public var stream: (@Sendable () -> [UInt8]?)?
    /// An open file sent as the body (with its Content-Length, by the kernel), instead of
    /// `body`. The server owns the descriptor from then on and closes it when done.
    public var file: HTTPFileBody?

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = nil
        self.file = nil
    }

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), file: HTTPFileBody) {
        self.status = status
        self.headers = headers
        self.body = []
        self.stream = nil
        self.file = file
    }

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), stream: @escaping @Sendable () -> [UInt8]?) {
        self.status = status
        self.headers = headers
        self.body = []
        self.stream = stream
        self.file = nil
    }

    /// A plain-text response.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }
}

/// `size` bytes of an open regular file from `offset`. The descriptor must not be used by the
/// caller after handing it over in a response.
public struct HTTPFileBody: Sendable {
    public let descriptor: Int32
    public let offset: Int
    public let size: Int

    public init(descriptor: Int32, offset: Int = 0, size: Int) {
        self.descriptor = descriptor
        self.offset = offset
        self.size = size
    }
}
