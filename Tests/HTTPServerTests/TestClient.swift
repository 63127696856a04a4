import CCurl
import Foundation

/// A minimal libcurl client for the tests: one request, the whole response.
struct ClientResponse {
    var status: Int
    var headerLines: [String]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        let prefix = name.lowercased() + ":"
        return headerLines.first { $0.lowercased().hasPrefix(prefix) }
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
    _ = a11y_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
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

/// Sends a request over a plain socket with a chunked body (no Content-Length), which libcurl's
/// easy API cannot do without a read callback, and returns the response's status line.
func sendChunked(port: UInt16, path: String, chunks: [[UInt8]]) throws -> String {
    let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socketDescriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(socketDescriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    var message = Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".utf8)
    for chunk in chunks {
        message += Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Array("\r\n".utf8)
    }
    message += Array("0\r\n\r\n".utf8)
    var sent = 0
    while sent < message.count {
        let count = message[sent...].withUnsafeBytes { send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if count <= 0 { break }    // the server may answer and close before reading everything
        sent += count
    }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(socketDescriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        response += buffer[0..<count]
    }
    return String(decoding: response, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
}
