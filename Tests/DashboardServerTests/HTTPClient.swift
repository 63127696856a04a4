import CCurl
import Foundation

/// A libcurl client for the tests: one request, the whole response, the path sent exactly as
/// written (no `..` folding) and no automatic decompression, so the server's own handling is seen.
struct ClientResponse {
    var status: Int
    var headerLines: [String]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers(name).first }
    func headers(_ name: String) -> [String] {
        let prefix = name.lowercased() + ":"
        return headerLines.filter { $0.lowercased().hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count)).trimmingCharacters(in: .whitespacesAndNewlines) }
    }
    var text: String { String(decoding: body, as: UTF8.self) }
}

struct ClientError: Error, CustomStringConvertible {
    let code: CURLcode
    var description: String { "libcurl: \(String(cString: curl_easy_strerror(code)))" }
}

private final class Collected {
    var body: [UInt8] = []
    var headers: [String] = []
}

func request(_ url: String, method: String = "GET", headers: [String] = [], body: [UInt8]? = nil) throws -> ClientResponse {
    guard let handle = curl_easy_init() else { throw ClientError(code: CURLE_FAILED_INIT) }
    defer { curl_easy_cleanup(handle) }
    let collected = Collected()
    let context = Unmanaged.passUnretained(collected).toOpaque()
    var list: UnsafeMutablePointer<curl_slist>?
    for header in headers { list = curl_slist_append(list, header) }
    defer { curl_slist_free_all(list) }
    _ = a11y_curl_setopt_string(handle, CURLOPT_URL, url)
    _ = a11y_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
    _ = a11y_curl_setopt_long(handle, CURLOPT_TIMEOUT, 20)
    _ = a11y_curl_setopt_long(handle, CURLOPT_PATH_AS_IS, 1)
    if method == "HEAD" {
        _ = a11y_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
    } else {
        _ = a11y_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
    }
    if let list { _ = a11y_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list) }
    _ = a11y_curl_setopt_write_function(handle) { data, size, count, context in
        guard let data, let context else { return 0 }
        let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
        collected.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count))
        return size * count
    }
    _ = a11y_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
    _ = a11y_curl_setopt_header_function(handle) { data, size, count, context in
        guard let data, let context else { return 0 }
        let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self)
        collected.headers.append(line.trimmingCharacters(in: .whitespacesAndNewlines))
        return size * count
    }
    _ = a11y_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
    var payload = body ?? []
    let code = payload.withUnsafeMutableBytes { bytes -> CURLcode in
        if body != nil {
            _ = a11y_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, bytes.count)
            _ = a11y_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, bytes.baseAddress)
        }
        return curl_easy_perform(handle)
    }
    guard code == CURLE_OK else { throw ClientError(code: code) }
    var status = 0
    _ = a11y_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
    return ClientResponse(status: status, headerLines: collected.headers, body: collected.body)
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A site folder in /tmp: the hand-written fixture pages plus the real stylesheet, removed on deinit.
final class SiteFolder {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    let root: String      // the parent, holding files outside the site
    let site: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-\(UUID().uuidString)").path
        site = root + "/site"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.repositoryRoot + "/Tests/Fixtures/Site", toPath: site)
        try FileManager.default.createDirectory(atPath: site + "/assets", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.repositoryRoot + "/Web/dashboard.css", toPath: site + "/assets/dashboard.css")
    }

    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let path = site + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw TestFailure("cannot write \(path)") }
    }

    /// Replaces a file the way the renderer does: a temporary file renamed over it.
    func replaceAtomically(_ relative: String, _ text: String) throws {
        let path = site + "/" + relative
        let temporary = site + "/." + UUID().uuidString + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)), rename(temporary, path) == 0 else {
            throw TestFailure("cannot replace \(path)")
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}
