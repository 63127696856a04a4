import Foundation
import HTTPServer

/// Redirects of the dashboard: always to an absolute path on this origin.
///
/// A Location of `//host/…` is protocol-relative and `/\host/…` is read the same way by browsers
/// (they treat `\` as `/` and drop tabs and line breaks), so a request path such as `//teams`
/// echoed into a Location would send the visitor to another host.
enum Redirect {
    /// Path characters sent as they are; everything else (`\`, `%`, `?`, `#`, spaces, controls)
    /// is percent-encoded, so the header holds no character a browser would reinterpret.
    private static let allowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~!$&'()*+,;=:@")
        return set
    }()

    /// `/` + the path's non-empty components, each percent-encoded, joined by single slashes,
    /// with a trailing slash when `directory`. nil when a component cannot be encoded; the
    /// caller then answers 404.
    static func location(_ path: String, directory: Bool) -> String? {
        var encoded: [String] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let part = component.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
            encoded.append(part)
        }
        let location = "/" + encoded.joined(separator: "/") + (directory && !encoded.isEmpty ? "/" : "")
        return isSameOrigin(location) ? location : nil
    }

    /// A root-relative path that no browser reads as naming a host.
    static func isSameOrigin(_ location: String) -> Bool {
        let scalars = Array(location.unicodeScalars.prefix(2))
        guard scalars.first == "/" else { return false }
        if scalars.count > 1, scalars[1] == "/" || scalars[1] == "\\" { return false }
        return location.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" }
    }

    /// A 301 to `location`, or a 404 page if it would leave this origin.
    static func response(to location: String?, basePath: String) -> HTTPResponse {
        let page = ErrorPage(basePath: basePath)
        guard let location, isSameOrigin(location) else {
            return page.response(status: 404, title: "Page not found", message: "There is no page at this address.")
        }
        var response = page.response(status: 301, title: "Moved", message: "This page is at \(location).")
        response.headers.set("Location", location)
        return response
    }
}
