import Foundation
import HTTPServer

/// Answers GET/HEAD for a file of the site: content type, validators, conditional requests,
/// gzip, caching headers. nil when the path names nothing servable (the caller sends 404).
struct StaticResponder {
    let site: StaticSite
    let basePath: String
    /// With read access restricted, shared caches must not keep pages.
    let cacheIsPrivate: Bool

    func respond(path: String, headers: HTTPHeaders) -> HTTPResponse? {
        let realPath: String
        switch site.lookup(path) {
        case .notFound: return nil
        case .directoryWithoutSlash:
            // Rebuilt from the components, not echoed: `//teams` must not become `Location: //teams/`.
            return Redirect.response(to: Redirect.location(basePath + path, directory: true), basePath: basePath)
        case .file(let found): realPath = found
        }
        let type = ContentType.forPath(realPath)
        guard let opened = site.open(realPath, compressible: type.compressible) else { return nil }

        var common = HTTPHeaders()
        common.set("Content-Type", type.mimeType)
        // Pages change with every night's render (and are revalidated cheaply by ETag); assets rarely.
        let maxAge = type.isPage ? 60 : 600
        common.set("Cache-Control", (cacheIsPrivate ? "private" : "public") + ", max-age=\(maxAge)")
        if type.compressible { common.set("Vary", "Accept-Encoding") }

        switch opened {
        case .large(let descriptor, let size, let etag, let modified):
            common.set("ETag", etag)
            common.set("Last-Modified", HTTPDate.format(modified))
            if notModified(headers, etag: etag, modified: modified) {
                close(descriptor)
                return HTTPResponse(status: 304, headers: common)
            }
            return HTTPResponse(status: 200, headers: common, file: HTTPFileBody(descriptor: descriptor, size: size))
        case .cached(let file):
            let gzip = file.gzipBody != nil && acceptsGzip(headers["Accept-Encoding"])
            let etag = gzip ? file.gzipETag : file.etag
            common.set("ETag", etag)
            common.set("Last-Modified", HTTPDate.format(file.modifiedSeconds))
            if notModified(headers, etag: etag, modified: file.modifiedSeconds) {
                return HTTPResponse(status: 304, headers: common)
            }
            if gzip { common.set("Content-Encoding", "gzip") }
            return HTTPResponse(status: 200, headers: common, body: gzip ? (file.gzipBody ?? file.body) : file.body)
        }
    }

    /// RFC 9110 §13.2.2: If-None-Match decides when present; If-Modified-Since only without it.
    private func notModified(_ headers: HTTPHeaders, etag: String, modified: Int) -> Bool {
        if let noneMatch = headers["If-None-Match"] { return noneMatchIncludes(noneMatch, etag: etag) }
        if let since = headers["If-Modified-Since"].flatMap(HTTPDate.parse) { return modified <= since }
        return false
    }
}
