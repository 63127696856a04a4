import CCurl
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public struct FetchOptions: Sendable {
    public var connectTimeoutSeconds: Double
    /// For one attempt, redirects included.
    public var totalTimeoutSeconds: Double
    /// Archives larger than this are refused: up front from Content-Length, else as soon as the
    /// download passes it.
    public var maxBytes: Int
    public var maxRedirects: Int
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    /// Backoff before retry n is `retryBaseDelay * 2^(n-1)`, capped at `retryMaxDelay`, times a
    /// random factor in 0.5...1 so workers that failed together do not retry together.
    public var retryBaseDelaySeconds: Double
    public var retryMaxDelaySeconds: Double
    /// The longest `Retry-After` honoured; a server asking for more fails the fetch instead.
    public var maxRetryAfterSeconds: Int
    /// A PEM bundle of trusted CAs instead of the system's (a private GitHub Enterprise CA).
    /// Verification itself cannot be turned off.
    public var caBundlePath: String?
    public var userAgent: String

    public init(connectTimeoutSeconds: Double = 15, totalTimeoutSeconds: Double = 600, maxBytes: Int = 1 << 30,
                maxRedirects: Int = 5, maxAttempts: Int = 4, retryBaseDelaySeconds: Double = 1,
                retryMaxDelaySeconds: Double = 60, maxRetryAfterSeconds: Int = 120, caBundlePath: String? = nil,
                userAgent: String = "a11y-audit") {
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.totalTimeoutSeconds = totalTimeoutSeconds
        self.maxBytes = max(0, maxBytes)
        self.maxRedirects = max(0, maxRedirects)
        self.maxAttempts = max(1, maxAttempts)
        self.retryBaseDelaySeconds = max(0, retryBaseDelaySeconds)
        self.retryMaxDelaySeconds = max(0, retryMaxDelaySeconds)
        self.maxRetryAfterSeconds = max(0, maxRetryAfterSeconds)
        self.caBundlePath = caBundlePath
        self.userAgent = userAgent
    }
}

public enum FetchDestination: Sendable, Equatable {
    case memory
    /// A new file (mode 0600) inside this existing directory, which the caller owns and keeps
    /// private. The file is removed if the fetch fails.
    case file(directory: String)
}

public struct FetchedArchive: Sendable {
    public enum Content: Sendable {
        case memory([UInt8])
        case file(path: String)
    }
    public let content: Content
    public let byteCount: Int
    /// The URL the archive came from after redirects, without credentials.
    public let finalURL: String
    public let attempts: Int
    public let redirects: Int
}

/// A failed attempt that will be retried, for logging.
public struct FetchRetry: Sendable {
    public let attempt: Int
    public let error: FetchError
    public let delaySeconds: Double
}

/// Downloads repository archives with libcurl: TLS verified, timeouts, a size cap enforced
/// while streaming, redirects followed by hand (capped; credentials only to the same origin),
/// and retries with backoff on 5xx, 408, 429 and transient network errors.
public struct ArchiveFetcher: Sendable {
    public var options: FetchOptions
    public var onRetry: (@Sendable (FetchRetry) -> Void)?

    public init(options: FetchOptions = FetchOptions(), onRetry: (@Sendable (FetchRetry) -> Void)? = nil) {
        self.options = options
        self.onRetry = onRetry
    }

    public func fetch(_ location: ArchiveLocation, credential: FetchCredential? = nil,
                      to destination: FetchDestination = .memory) throws -> FetchedArchive {
        let shownURL = redactedURL(location.url)
        guard CurlGlobal.status == CURLE_OK else {
            throw FetchError.setup(reason: String(cString: curl_easy_strerror(CurlGlobal.status)))
        }
        guard let handle = curl_easy_init() else { throw FetchError.setup(reason: "curl_easy_init failed") }
        defer { curl_easy_cleanup(handle) }
        let sink = try BodySink(destination: destination, limit: options.maxBytes)
        do {
            var attempt = 0
            while true {
                attempt += 1
                switch attemptFetch(location.url, credential: credential, handle: handle, sink: sink) {
                case .success((let finalURL, let redirects)):
                    return try sink.finish(finalURL: redactedURL(finalURL), attempts: attempt, redirects: redirects)
                case .failure(let failure):
                    guard failure.retryable, attempt < options.maxAttempts else { throw failure.error(attempt) }
                    let delay: Double
                    if let retryAfter = failure.retryAfter, retryAfter > 0 {
                        guard retryAfter <= options.maxRetryAfterSeconds else {
                            throw FetchError.retryAfterTooLong(url: shownURL, seconds: retryAfter, cap: options.maxRetryAfterSeconds)
                        }
                        delay = Double(retryAfter)
                    } else {
                        let exponential = options.retryBaseDelaySeconds * pow(2, Double(attempt - 1))
                        delay = min(options.retryMaxDelaySeconds, exponential) * Double.random(in: 0.5...1)
                    }
                    onRetry?(FetchRetry(attempt: attempt, error: failure.error(attempt), delaySeconds: delay))
                    if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                }
            }
        } catch {
            sink.discard()
            throw error
        }
    }

    private struct AttemptFailure: Error {
        let error: @Sendable (Int) -> FetchError
        let retryable: Bool
        var retryAfter: Int? = nil
    }

    /// One attempt: the URL and the redirects it leads to, within one total timeout.
    private func attemptFetch(_ startURL: String, credential: FetchCredential?, handle: UnsafeMutableRawPointer,
                              sink: BodySink) -> Result<(String, Int), AttemptFailure> {
        let deadline = Date().addingTimeInterval(options.totalTimeoutSeconds)
        let origin = Origin(startURL)
        var url = startURL
        var redirects = 0
        while true {
            let shown = redactedURL(url)
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                let seconds = options.totalTimeoutSeconds
                return .failure(AttemptFailure(error: { .timedOut(url: shown, seconds: seconds, attempts: $0) }, retryable: true))
            }
            // Tokens go only to the origin they were meant for, never to a redirect elsewhere.
            let sendCredential = credential.flatMap { Origin(url) == origin ? $0 : nil }
            let outcome = transfer(url, credential: sendCredential, timeout: remaining, handle: handle, sink: sink)
            switch outcome {
            case .failure(let failure):
                return .failure(failure)
            case .success(let status, let location):
                if [301, 302, 303, 307, 308].contains(status) {
                    guard let location, !location.isEmpty else {
                        return .failure(AttemptFailure(error: { _ in .redirectWithoutLocation(url: shown, status: status) }, retryable: false))
                    }
                    redirects += 1
                    guard redirects <= options.maxRedirects else {
                        let limit = options.maxRedirects
                        let first = redactedURL(startURL)
                        return .failure(AttemptFailure(error: { _ in .tooManyRedirects(url: first, limit: limit) }, retryable: false))
                    }
                    let from = Origin(url).scheme, to = Origin(location).scheme
                    guard to == "https" || (to == "http" && from == "http") else {
                        let target = redactedURL(location)
                        return .failure(AttemptFailure(error: { _ in .forbiddenRedirect(url: shown, to: target) }, retryable: false))
                    }
                    url = location
                    continue
                }
                if (200..<300).contains(status) || (status == 0 && Origin(url).scheme == "file") {
                    return .success((url, redirects))
                }
                let retryable = status >= 500 || status == 429 || status == 408
                var failure = AttemptFailure(error: { .httpStatus(url: shown, status: status, attempts: $0) }, retryable: retryable)
                if retryable { failure.retryAfter = curlRetryAfter(handle) }
                return .failure(failure)
            }
        }
    }

    private enum TransferOutcome {
        case success(status: Int, location: String?)
        case failure(AttemptFailure)
    }

    /// One request/response with libcurl, the body going to `sink`.
    private func transfer(_ url: String, credential: FetchCredential?, timeout: Double, handle: UnsafeMutableRawPointer,
                          sink: BodySink) -> TransferOutcome {
        let shown = redactedURL(url)
        let scheme = Origin(url).scheme
        guard ["https", "http", "file"].contains(scheme) else {
            return .failure(AttemptFailure(error: { _ in .unsupportedScheme(url: shown) }, retryable: false))
        }
        curl_easy_reset(handle)
        if let failure = sink.restart() { return .failure(AttemptFailure(error: { _ in failure }, retryable: false)) }
        sink.handle = handle
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        var headers: UnsafeMutablePointer<curl_slist>?
        if let credential { headers = curl_slist_append(headers, "\(credential.headerName): \(credential.value)") }
        defer { curl_slist_free_all(headers) }
        let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()

        var setup = [
            a11y_curl_setopt_string(handle, CURLOPT_URL, url),
            a11y_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https,file"),
            a11y_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            a11y_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            a11y_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            a11y_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
            a11y_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(options.connectTimeoutSeconds * 1000))),
            a11y_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int(timeout * 1000))),
            a11y_curl_setopt_string(handle, CURLOPT_USERAGENT, options.userAgent),
            a11y_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            a11y_curl_setopt_write_function(handle, writeBody),
            a11y_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, sinkPointer),
        ]
        if let headers { setup.append(a11y_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers)) }
        if let bundle = options.caBundlePath { setup.append(a11y_curl_setopt_string(handle, CURLOPT_CAINFO, bundle)) }
        if let failed = setup.first(where: { $0 != CURLE_OK }) {
            let reason = String(cString: curl_easy_strerror(failed))
            return .failure(AttemptFailure(error: { _ in .setup(reason: reason) }, retryable: false))
        }

        let code = curl_easy_perform(handle)
        if let overflow = sink.overflow {
            let limit = options.maxBytes
            let declared: Int? = if case .declared(let size) = overflow { size } else { nil }
            return .failure(AttemptFailure(error: { _ in .tooLarge(url: shown, limit: limit, declared: declared) }, retryable: false))
        }
        if let writeFailure = sink.writeFailure {
            return .failure(AttemptFailure(error: { _ in writeFailure }, retryable: false))
        }
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            return .failure(classify(code, url: shown, reason: reason))
        }
        var status = 0
        _ = a11y_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var location: UnsafeMutablePointer<CChar>?
        _ = a11y_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &location)
        return .success(status: status, location: location.map { String(cString: $0) })
    }

    private func classify(_ code: CURLcode, url: String, reason: String) -> AttemptFailure {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            let seconds = options.totalTimeoutSeconds
            // Connect timeouts say so in libcurl's message; report the limit that was hit.
            let limit = reason.lowercased().contains("connect") ? options.connectTimeoutSeconds : seconds
            return AttemptFailure(error: { .timedOut(url: url, seconds: limit, attempts: $0) }, retryable: true)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR,
             CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return AttemptFailure(error: { .network(url: url, reason: reason, attempts: $0) }, retryable: true)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
             CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
             CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED:
            return AttemptFailure(error: { _ in .tls(url: url, reason: reason) }, retryable: false)
        case CURLE_FILE_COULDNT_READ_FILE, CURLE_READ_ERROR:
            return AttemptFailure(error: { _ in .fileNotReadable(url: url, reason: reason) }, retryable: false)
        case CURLE_UNSUPPORTED_PROTOCOL:
            return AttemptFailure(error: { _ in .unsupportedScheme(url: url) }, retryable: false)
        case CURLE_URL_MALFORMAT:
            return AttemptFailure(error: { _ in .invalidURL(url, reason: reason) }, retryable: false)
        default:
            return AttemptFailure(error: { .network(url: url, reason: reason, attempts: $0) }, retryable: false)
        }
    }

    /// libcurl parses `Retry-After` in both forms (seconds, or an HTTP date turned into seconds from now).
    private func curlRetryAfter(_ handle: UnsafeMutableRawPointer) -> Int? {
        var seconds: curl_off_t = 0
        guard a11y_curl_getinfo_offset(handle, CURLINFO_RETRY_AFTER, &seconds) == CURLE_OK, seconds > 0 else { return nil }
        return Int(seconds)
    }
}

/// libcurl's global state is set up once per process, before any handle, on whichever thread
/// gets here first (a Swift global is initialised exactly once, thread-safely).
private enum CurlGlobal {
    static let status: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
}

/// Scheme, host and port: what decides whether a credential may be sent.
private struct Origin: Equatable {
    let scheme: String
    let host: String
    let port: Int?

    init(_ url: String) {
        let components = URLComponents(string: url)
        scheme = components?.scheme?.lowercased() ?? ""
        host = components?.host?.lowercased() ?? ""
        port = components?.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
    }
}

/// Where the body of the current response goes. Only 2xx bodies (or a file:// read) are kept;
/// redirect and error bodies are dropped. Used by one transfer at a time.
private final class BodySink {
    enum Overflow { case declared(Int), streamed }

    let limit: Int
    let destination: FetchDestination
    private(set) var path: String?
    private var descriptor: Int32 = -1
    private var memory: [UInt8] = []
    private var written = 0
    private var decided = false
    private var keeping = false
    var handle: UnsafeMutableRawPointer?
    private(set) var overflow: Overflow?
    private(set) var writeFailure: FetchError?

    init(destination: FetchDestination, limit: Int) throws {
        self.destination = destination
        self.limit = limit
        if case .file(let directory) = destination {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw FetchError.destination(path: directory, reason: "not an existing directory")
            }
            let path = directory + "/archive-\(UUID().uuidString)"
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw FetchError.destination(path: path, reason: String(cString: strerror(errno)))
            }
            self.path = path
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Empties what an earlier response wrote. Returns an error if the file cannot be reset.
    func restart() -> FetchError? {
        memory = []
        written = 0
        decided = false
        keeping = false
        overflow = nil
        writeFailure = nil
        if descriptor >= 0, ftruncate(descriptor, 0) != 0 || lseek(descriptor, 0, SEEK_SET) != 0 {
            return .destination(path: path ?? "", reason: String(cString: strerror(errno)))
        }
        return nil
    }

    /// Returns how many bytes were taken; fewer than offered makes libcurl abort the transfer.
    func write(_ data: UnsafeRawBufferPointer) -> Int {
        if !decided {
            decided = true
            var status = 0
            if let handle { _ = a11y_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status) }
            keeping = status == 0 || (200..<300).contains(status)
            if keeping, let handle {
                var declared: curl_off_t = -1
                if a11y_curl_getinfo_offset(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared) == CURLE_OK, declared > limit {
                    overflow = .declared(Int(declared))
                    return 0
                }
                if declared > 0, descriptor < 0 { memory.reserveCapacity(Int(declared)) }
            }
        }
        guard keeping else { return data.count }
        guard written + data.count <= limit else {
            overflow = .streamed
            return 0
        }
        if descriptor >= 0 {
            var offset = 0
            while offset < data.count, let base = data.baseAddress {
                let count = Glibc.write(descriptor, base + offset, data.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    writeFailure = .destination(path: path ?? "", reason: String(cString: strerror(errno)))
                    return 0
                }
                offset += count
            }
        } else {
            memory.append(contentsOf: data)
        }
        written += data.count
        return data.count
    }

    func finish(finalURL: String, attempts: Int, redirects: Int) throws -> FetchedArchive {
        if let path {
            guard fsync(descriptor) == 0, close(descriptor) == 0 else {
                descriptor = -1
                throw FetchError.destination(path: path, reason: String(cString: strerror(errno)))
            }
            descriptor = -1
            return FetchedArchive(content: .file(path: path), byteCount: written, finalURL: finalURL, attempts: attempts, redirects: redirects)
        }
        return FetchedArchive(content: .memory(memory), byteCount: written, finalURL: finalURL, attempts: attempts, redirects: redirects)
    }

    /// A failed fetch leaves nothing behind.
    func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if let path { unlink(path) }
        memory = []
    }
}

private let writeBody: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, context in
    guard let context else { return 0 }
    let sink = Unmanaged<BodySink>.fromOpaque(context).takeUnretainedValue()
    return sink.write(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size * count))
}
