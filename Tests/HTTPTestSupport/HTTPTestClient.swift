import CCurl
import Foundation

/// A libcurl client for the HTTP tests: one request, the whole response, the path sent exactly
/// as written (no `..` folding) and no automatic decompression, so the server's own handling is
/// seen.
public struct ClientResponse: Sendable {
    public var status: Int
    public var headerLines: [String]
    public var body: [UInt8]

    public func header(_ name: String) -> String? { headers(name).first }
    public func headers(_ name: String) -> [String] {
        let prefix = name.lowercased() + ":"
        return headerLines.filter { $0.lowercased().hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count)).trimmingCharacters(in: .whitespacesAndNewlines) }
    }
    public var text: String { String(decoding: body, as: UTF8.self) }
}

public struct ClientError: Error, CustomStringConvertible {
    public let code: CURLcode
    public var description: String { "libcurl: \(String(cString: curl_easy_strerror(code)))" }
}

private final class Collected {
    var body: [UInt8] = []
    var headers: [String] = []
}

public func request(_ url: String, method: String = "GET", headers: [String] = [], body: [UInt8]? = nil) throws -> ClientResponse {
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
