import CCurl
import Foundation

public enum HTTPMethod: String, Sendable {
    case get = "GET", post = "POST", patch = "PATCH", put = "PUT", delete = "DELETE"
}

public struct CurlRequest: Sendable {
    public var method: HTTPMethod
    public var url: String
    public var headers: HeaderFields
    /// Sent as is; set `Content-Type` in `headers` to say what it is.
    public var body: [UInt8]?

    public init(method: HTTPMethod = .get, url: String, headers: HeaderFields = HeaderFields(), body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct CurlOptions: Sendable {
    public var connectTimeoutSeconds: Double
    /// For the whole request and response.
    public var totalTimeoutSeconds: Double
    /// A kept body larger than this ends the transfer: up front from Content-Length, else as
    /// soon as the body passes it.
    public var maxResponseBytes: Int
    /// URL schemes libcurl may use; anything else is refused before a connection is made.
    public var allowedSchemes: [String]
    /// A PEM bundle of trusted CAs instead of the system's (a private GitHub Enterprise CA).
    /// Verification itself cannot be turned off.
    public var caBundlePath: String?
    public var userAgent: String

    public init(connectTimeoutSeconds: Double = 15, totalTimeoutSeconds: Double = 60, maxResponseBytes: Int = 16 << 20,
                allowedSchemes: [String] = ["https", "http"], caBundlePath: String? = nil, userAgent: String = "a11y-audit") {
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.totalTimeoutSeconds = totalTimeoutSeconds
        self.maxResponseBytes = max(0, maxResponseBytes)
        self.allowedSchemes = allowedSchemes.map { $0.lowercased() }
        self.caBundlePath = caBundlePath
        self.userAgent = userAgent
    }
}

/// What came back before the body: status, every header field of the final response, and what
/// libcurl worked out from them.
public struct CurlResponseHead: Sendable {
    /// 0 for a file:// read.
    public let status: Int
    public let headers: HeaderFields
    /// Where a 3xx points, resolved against the request URL (redirects are never followed here).
    public let redirectURL: String?
    /// `Retry-After` in seconds from now, whether sent as seconds or as an HTTP date.
    public let retryAfterSeconds: Int?
}

public struct CurlResponse: Sendable {
    public let head: CurlResponseHead
    public let body: [UInt8]

    public var status: Int { head.status }
    public var headers: HeaderFields { head.headers }
}

/// Why a transfer did not complete. `url` has its credentials removed.
public struct CurlFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// libcurl itself could not be set up (global init, a handle, an option).
        case setup
        case invalidURL
        case unsupportedScheme
        /// `connect` when the connect timeout, not the total one, was hit.
        case timedOut(connect: Bool)
        /// Resolving, connecting, sending or receiving failed; worth retrying.
        case network
        case tls
        case fileNotReadable
        case tooLarge(limit: Int, declared: Int?)
        /// The body consumer refused the data (its own error says why).
        case aborted
        /// Any other libcurl error; not worth retrying.
        case other
    }

    public let kind: Kind
    public let url: String
    public let reason: String

    public init(kind: Kind, url: String, reason: String) {
        self.kind = kind
        self.url = url
        self.reason = reason
    }

    /// Failures a later attempt may not meet.
    public var isTransient: Bool {
        switch kind {
        case .timedOut, .network: true
        default: false
        }
    }

    public var description: String {
        switch kind {
        case .tooLarge(let limit, let declared?):
            "\(url): response is \(declared) bytes (Content-Length), over the \(limit)-byte limit; not read"
        case .tooLarge(let limit, nil):
            "\(url): response is over the \(limit)-byte limit; reading stopped there"
        case .tls:
            "\(url): TLS failure (\(reason)); certificate verification is always on"
        case .unsupportedScheme:
            "\(url): this URL scheme is not allowed here"
        default:
            "\(url): \(reason)"
        }
    }
}

/// Receives a response body as it streams in. Called on the thread running `perform`.
public protocol ResponseBodyConsumer: AnyObject {
    /// Called once, before the first body byte. Return false to drop this response's body
    /// (it is then neither passed on nor counted against the size cap).
    func begin(status: Int, declaredLength: Int?) -> Bool
    /// Return false to abort the transfer (the transfer then fails with `.aborted`).
    func consume(_ bytes: UnsafeRawBufferPointer) -> Bool
}

/// One libcurl easy handle, reused from request to request so connections are kept alive.
/// Not shared between threads: make one per thread or per task. TLS verification is always on,
/// redirects are never followed (callers decide where a credential may go).
public final class CurlSession {
    private let handle: UnsafeMutableRawPointer

    public init() throws(CurlFailure) {
        guard CurlGlobal.status == CURLE_OK else {
            throw CurlFailure(kind: .setup, url: "", reason: "cannot set up libcurl (\(String(cString: curl_easy_strerror(CurlGlobal.status))))")
        }
        guard let handle = curl_easy_init() else {
            throw CurlFailure(kind: .setup, url: "", reason: "cannot set up libcurl (curl_easy_init failed)")
        }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    /// One request with the whole body in memory (every status's body is kept, up to the cap).
    public func perform(_ request: CurlRequest, options: CurlOptions) -> Result<CurlResponse, CurlFailure> {
        let collector = MemoryBody()
        return perform(request, options: options, consumer: collector)
            .map { CurlResponse(head: $0, body: collector.bytes) }
    }

    /// One request, the body streamed to `consumer`.
    public func perform(_ request: CurlRequest, options: CurlOptions,
                        consumer: any ResponseBodyConsumer) -> Result<CurlResponseHead, CurlFailure> {
        let shown = redactedURL(request.url)
        let scheme = URLOrigin(request.url).scheme
        guard options.allowedSchemes.contains(scheme) else {
            return .failure(CurlFailure(kind: .unsupportedScheme, url: shown, reason: "scheme \"\(scheme)\" is not allowed"))
        }
        curl_easy_reset(handle)
        let state = TransferState(handle: handle, consumer: consumer, limit: options.maxResponseBytes)
        let statePointer = Unmanaged.passUnretained(state).toOpaque()
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        // libcurl reads the body in place during perform, so it lives in memory we own until then.
        let body = request.body ?? []
        let bodyBuffer = UnsafeMutableRawPointer.allocate(byteCount: max(1, body.count), alignment: 1)
        defer { bodyBuffer.deallocate() }
        body.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { bodyBuffer.copyMemory(from: base, byteCount: bytes.count) }
        }
        var headerList: UnsafeMutablePointer<curl_slist>?
        for field in request.headers {
            headerList = curl_slist_append(headerList, "\(field.name): \(field.value)")
        }
        // libcurl would otherwise wait for a 100 Continue before sending a larger body.
        if request.body != nil, request.headers["Expect"] == nil { headerList = curl_slist_append(headerList, "Expect:") }
        defer { curl_slist_free_all(headerList) }

        var setup = [
            a11y_curl_setopt_string(handle, CURLOPT_URL, request.url),
            a11y_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, options.allowedSchemes.joined(separator: ",")),
            a11y_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            a11y_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            a11y_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            a11y_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
            a11y_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(options.connectTimeoutSeconds * 1000))),
            a11y_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int(options.totalTimeoutSeconds * 1000))),
            a11y_curl_setopt_string(handle, CURLOPT_USERAGENT, options.userAgent),
            a11y_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            a11y_curl_setopt_write_function(handle, writeBody),
            a11y_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, statePointer),
            a11y_curl_setopt_header_function(handle, readHeader),
            a11y_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, statePointer),
        ]
        switch request.method {
        case .get:
            setup.append(a11y_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
        case .post:
            setup.append(a11y_curl_setopt_long(handle, CURLOPT_POST, 1))
        case .patch, .put, .delete:
            setup.append(a11y_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue))
        }
        if request.body != nil || request.method == .post {
            setup.append(a11y_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count))
            setup.append(a11y_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, bodyBuffer))
        }
        if let headerList { setup.append(a11y_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)) }
        if let bundle = options.caBundlePath { setup.append(a11y_curl_setopt_string(handle, CURLOPT_CAINFO, bundle)) }
        if let failed = setup.first(where: { $0 != CURLE_OK }) {
            return .failure(CurlFailure(kind: .setup, url: shown, reason: "cannot set up libcurl (\(String(cString: curl_easy_strerror(failed))))"))
        }

        let code = curl_easy_perform(handle)
        if let overflow = state.overflow {
            return .failure(CurlFailure(kind: .tooLarge(limit: options.maxResponseBytes, declared: overflow), url: shown,
                                        reason: "response over the size limit"))
        }
        if state.consumerAborted {
            return .failure(CurlFailure(kind: .aborted, url: shown, reason: "the response body could not be stored"))
        }
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            return .failure(CurlFailure(kind: Self.classify(code, reason: reason), url: shown, reason: reason))
        }
        var status = 0
        _ = a11y_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var location: UnsafeMutablePointer<CChar>?
        _ = a11y_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &location)
        var retryAfter: curl_off_t = 0
        let hasRetryAfter = a11y_curl_getinfo_offset(handle, CURLINFO_RETRY_AFTER, &retryAfter) == CURLE_OK && retryAfter > 0
        return .success(CurlResponseHead(status: status, headers: HeaderFields(state.headers),
                                         redirectURL: location.map { String(cString: $0) },
                                         retryAfterSeconds: hasRetryAfter ? Int(retryAfter) : nil))
    }

    private static func classify(_ code: CURLcode, reason: String) -> CurlFailure.Kind {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            // Connect timeouts say so in libcurl's message.
            .timedOut(connect: reason.lowercased().contains("connect"))
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR,
             CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            .network
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
             CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
             CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED:
            .tls
        case CURLE_FILE_COULDNT_READ_FILE, CURLE_READ_ERROR:
            .fileNotReadable
        case CURLE_UNSUPPORTED_PROTOCOL:
            .unsupportedScheme
        case CURLE_URL_MALFORMAT:
            .invalidURL
        default:
            .other
        }
    }
}

/// libcurl's global state is set up once per process, before any handle, on whichever thread
/// gets here first (a Swift global is initialised exactly once, thread-safely).
private enum CurlGlobal {
    static let status: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
}

/// Collects a body in memory.
private final class MemoryBody: ResponseBodyConsumer {
    var bytes: [UInt8] = []

    func begin(status: Int, declaredLength: Int?) -> Bool {
        if let declaredLength, declaredLength > 0 { bytes.reserveCapacity(declaredLength) }
        return true
    }

    func consume(_ data: UnsafeRawBufferPointer) -> Bool {
        bytes.append(contentsOf: data)
        return true
    }
}

/// One transfer's headers and body bookkeeping, reached from libcurl's callbacks.
private final class TransferState {
    let handle: UnsafeMutableRawPointer
    let consumer: any ResponseBodyConsumer
    let limit: Int
    var headers: [HeaderField] = []
    var decided = false
    var keeping = false
    var written = 0
    /// Set when the size cap ended the transfer: the declared length, or nil if it was passed while streaming.
    var overflow: Int?? = nil
    var consumerAborted = false

    init(handle: UnsafeMutableRawPointer, consumer: any ResponseBodyConsumer, limit: Int) {
        self.handle = handle
        self.consumer = consumer
        self.limit = limit
    }

    func header(_ line: String) {
        let trimmed = line.trimmingCharacters(in: CharacterSet(charactersIn: "\r\n"))
        if trimmed.hasPrefix("HTTP/") {
            headers = []            // a new response (after a 100 Continue, say): only the last one counts
        } else if let first = trimmed.first, first == " " || first == "\t", let last = headers.popLast() {
            // An obsolete folded continuation line (RFC 9112 §5.2) belongs to the field before it.
            headers.append(HeaderField(name: last.name, value: last.value + " " + trimmed.trimmingCharacters(in: .whitespaces)))
        } else if let colon = trimmed.firstIndex(of: ":") {
            let name = String(trimmed[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(trimmed[trimmed.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { headers.append(HeaderField(name: name, value: value)) }
        }
    }

    /// Returns how many bytes were taken; fewer than offered makes libcurl abort the transfer.
    func write(_ data: UnsafeRawBufferPointer) -> Int {
        if !decided {
            decided = true
            var status = 0
            _ = a11y_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            var declared: curl_off_t = -1
            let known = a11y_curl_getinfo_offset(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared) == CURLE_OK && declared >= 0
            keeping = consumer.begin(status: status, declaredLength: known ? Int(declared) : nil)
            if keeping, known, declared > limit {
                overflow = .some(Int(declared))
                return 0
            }
        }
        guard keeping else { return data.count }
        guard written + data.count <= limit else {
            overflow = .some(nil)
            return 0
        }
        guard consumer.consume(data) else {
            consumerAborted = true
            return 0
        }
        written += data.count
        return data.count
    }
}

private let writeBody: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, context in
    guard let context else { return 0 }
    let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
    return state.write(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size * count))
}

private let readHeader: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, context in
    guard let context, let data else { return 0 }
    let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
    state.header(String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self))
    return size * count
}
