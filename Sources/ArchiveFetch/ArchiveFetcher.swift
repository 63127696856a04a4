import CurlHTTP
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
        let session: CurlSession
        do { session = try CurlSession() } catch { throw FetchError.setup(reason: error.reason) }
        let sink = try BodySink(destination: destination)
        let backoff = RetryBackoff(baseSeconds: options.retryBaseDelaySeconds, maxSeconds: options.retryMaxDelaySeconds)
        do {
            var attempt = 0
            while true {
                attempt += 1
                switch attemptFetch(location.url, credential: credential, session: session, sink: sink) {
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
                        delay = backoff.delay(afterAttempt: attempt)
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
    private func attemptFetch(_ startURL: String, credential: FetchCredential?, session: CurlSession,
                              sink: BodySink) -> Result<(String, Int), AttemptFailure> {
        let deadline = Date().addingTimeInterval(options.totalTimeoutSeconds)
        let origin = URLOrigin(startURL)
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
            let sendCredential = credential.flatMap { URLOrigin(url) == origin ? $0 : nil }
            let outcome = transfer(url, credential: sendCredential, timeout: remaining, session: session, sink: sink)
            switch outcome {
            case .failure(let failure):
                return .failure(failure)
            case .success(let head):
                let status = head.status
                if [301, 302, 303, 307, 308].contains(status) {
                    guard let location = head.redirectURL, !location.isEmpty else {
                        return .failure(AttemptFailure(error: { _ in .redirectWithoutLocation(url: shown, status: status) }, retryable: false))
                    }
                    redirects += 1
                    guard redirects <= options.maxRedirects else {
                        let limit = options.maxRedirects
                        let first = redactedURL(startURL)
                        return .failure(AttemptFailure(error: { _ in .tooManyRedirects(url: first, limit: limit) }, retryable: false))
                    }
                    let from = URLOrigin(url).scheme, to = URLOrigin(location).scheme
                    guard to == "https" || (to == "http" && from == "http") else {
                        let target = redactedURL(location)
                        return .failure(AttemptFailure(error: { _ in .forbiddenRedirect(url: shown, to: target) }, retryable: false))
                    }
                    url = location
                    continue
                }
                if (200..<300).contains(status) || (status == 0 && URLOrigin(url).scheme == "file") {
                    return .success((url, redirects))
                }
                let retryable = status >= 500 || status == 429 || status == 408
                var failure = AttemptFailure(error: { .httpStatus(url: shown, status: status, attempts: $0) }, retryable: retryable)
                if retryable { failure.retryAfter = head.retryAfterSeconds }
                return .failure(failure)
            }
        }
    }

    private enum TransferOutcome {
        case success(CurlResponseHead)
        case failure(AttemptFailure)
    }

    /// One request/response through the shared libcurl layer, the body going to `sink`.
    private func transfer(_ url: String, credential: FetchCredential?, timeout: Double, session: CurlSession,
                          sink: BodySink) -> TransferOutcome {
        let shown = redactedURL(url)
        guard ["https", "http", "file"].contains(URLOrigin(url).scheme) else {
            return .failure(AttemptFailure(error: { _ in .unsupportedScheme(url: shown) }, retryable: false))
        }
        if let failure = sink.restart() { return .failure(AttemptFailure(error: { _ in failure }, retryable: false)) }
        var headers = HeaderFields()
        if let credential { headers.add(credential.headerName, credential.value) }
        let curlOptions = CurlOptions(connectTimeoutSeconds: options.connectTimeoutSeconds, totalTimeoutSeconds: timeout,
                                      maxResponseBytes: options.maxBytes, allowedSchemes: ["http", "https", "file"],
                                      caBundlePath: options.caBundlePath, userAgent: options.userAgent)
        switch session.perform(CurlRequest(method: .get, url: url, headers: headers), options: curlOptions, consumer: sink) {
        case .success(let head):
            return .success(head)
        case .failure(let failure):
            if let writeFailure = sink.writeFailure {
                return .failure(AttemptFailure(error: { _ in writeFailure }, retryable: false))
            }
            return .failure(classify(failure))
        }
    }

    private func classify(_ failure: CurlFailure) -> AttemptFailure {
        let url = failure.url, reason = failure.reason
        switch failure.kind {
        case .timedOut(let connect):
            let limit = connect ? options.connectTimeoutSeconds : options.totalTimeoutSeconds
            return AttemptFailure(error: { .timedOut(url: url, seconds: limit, attempts: $0) }, retryable: true)
        case .network:
            return AttemptFailure(error: { .network(url: url, reason: reason, attempts: $0) }, retryable: true)
        case .tls:
            return AttemptFailure(error: { _ in .tls(url: url, reason: reason) }, retryable: false)
        case .fileNotReadable:
            return AttemptFailure(error: { _ in .fileNotReadable(url: url, reason: reason) }, retryable: false)
        case .unsupportedScheme:
            return AttemptFailure(error: { _ in .unsupportedScheme(url: url) }, retryable: false)
        case .invalidURL:
            return AttemptFailure(error: { _ in .invalidURL(url, reason: reason) }, retryable: false)
        case .tooLarge(let limit, let declared):
            return AttemptFailure(error: { _ in .tooLarge(url: url, limit: limit, declared: declared) }, retryable: false)
        case .setup:
            return AttemptFailure(error: { _ in .setup(reason: reason) }, retryable: false)
        case .aborted, .other:
            return AttemptFailure(error: { .network(url: url, reason: reason, attempts: $0) }, retryable: false)
        }
    }
}

/// Where the body of the current response goes. Only 2xx bodies (or a file:// read) are kept;
/// redirect and error bodies are dropped. Used by one transfer at a time.
private final class BodySink: ResponseBodyConsumer {
    let destination: FetchDestination
    private(set) var path: String?
    private var descriptor: Int32 = -1
    private var memory: [UInt8] = []
    private var written = 0
    private(set) var writeFailure: FetchError?

    init(destination: FetchDestination) throws {
        self.destination = destination
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
        writeFailure = nil
        if descriptor >= 0, ftruncate(descriptor, 0) != 0 || lseek(descriptor, 0, SEEK_SET) != 0 {
            return .destination(path: path ?? "", reason: String(cString: strerror(errno)))
        }
        return nil
    }

    /// Only 2xx bodies (or a file:// read) are kept; redirect and error bodies are dropped.
    func begin(status: Int, declaredLength: Int?) -> Bool {
        let keeping = status == 0 || (200..<300).contains(status)
        if keeping, let declaredLength, declaredLength > 0, descriptor < 0 { memory.reserveCapacity(declaredLength) }
        return keeping
    }

    func consume(_ data: UnsafeRawBufferPointer) -> Bool {
        if descriptor >= 0 {
            var offset = 0
            while offset < data.count, let base = data.baseAddress {
                let count = Glibc.write(descriptor, base + offset, data.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    writeFailure = .destination(path: path ?? "", reason: String(cString: strerror(errno)))
                    return false
                }
                offset += count
            }
        } else {
            memory.append(contentsOf: data)
        }
        written += data.count
        return true
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
