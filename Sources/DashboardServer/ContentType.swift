import Foundation

/// What a file extension is served as, and whether gzip is worth it.
public struct ContentType: Sendable, Equatable {
    public let mimeType: String
    public let compressible: Bool
    /// Pages change every night; assets far less often.
    public let isPage: Bool

    public static func forPath(_ path: String) -> ContentType {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let ext = name.contains(".") ? String(name.split(separator: ".").last ?? "").lowercased() : ""
        switch ext {
        case "html", "htm": return ContentType(mimeType: "text/html; charset=utf-8", compressible: true, isPage: true)
        case "css": return ContentType(mimeType: "text/css; charset=utf-8", compressible: true, isPage: false)
        case "js", "mjs": return ContentType(mimeType: "text/javascript; charset=utf-8", compressible: true, isPage: false)
        case "json": return ContentType(mimeType: "application/json", compressible: true, isPage: true)
        case "svg": return ContentType(mimeType: "image/svg+xml; charset=utf-8", compressible: true, isPage: false)
        case "txt": return ContentType(mimeType: "text/plain; charset=utf-8", compressible: true, isPage: true)
        case "xml": return ContentType(mimeType: "application/xml; charset=utf-8", compressible: true, isPage: true)
        case "csv": return ContentType(mimeType: "text/csv; charset=utf-8", compressible: true, isPage: true)
        case "png": return ContentType(mimeType: "image/png", compressible: false, isPage: false)
        case "jpg", "jpeg": return ContentType(mimeType: "image/jpeg", compressible: false, isPage: false)
        case "webp": return ContentType(mimeType: "image/webp", compressible: false, isPage: false)
        case "ico": return ContentType(mimeType: "image/vnd.microsoft.icon", compressible: true, isPage: false)
        case "woff2": return ContentType(mimeType: "font/woff2", compressible: false, isPage: false)
        default: return ContentType(mimeType: "application/octet-stream", compressible: false, isPage: false)
        }
    }
}

/// Whether an `Accept-Encoding` value accepts gzip (RFC 9110 §12.5.3): `gzip` or `x-gzip` with
/// a non-zero q, or `*` with a non-zero q when gzip is not named.
func acceptsGzip(_ header: String?) -> Bool {
    guard let header else { return false }
    var named: Double?
    var wildcard: Double?
    for item in header.split(separator: ",") {
        let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let coding = parts.first else { continue }
        var quality = 1.0
        for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
            quality = Double(parameter.dropFirst(2)) ?? 0
        }
        if coding == "gzip" || coding == "x-gzip" { named = max(named ?? 0, quality) }
        if coding == "*" { wildcard = quality }
    }
    if let named { return named > 0 }
    return (wildcard ?? 0) > 0
}

/// Whether `If-None-Match` lists `etag` (weak comparison, RFC 9110 §13.1.2) or is `*`.
func noneMatchIncludes(_ header: String, etag: String) -> Bool {
    let wanted = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
    for item in header.split(separator: ",") {
        let tag = item.trimmingCharacters(in: .whitespaces)
        if tag == "*" { return true }
        if (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == wanted { return true }
    }
    return false
}
