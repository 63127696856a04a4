import Foundation

/// One link of a `Link` header field (RFC 8288 §3): a target and its parameters.
public struct WebLink: Sendable, Equatable {
    public let target: String
    /// Parameter names lowercased, values unquoted, in order.
    public let parameters: [Parameter]

    public init(target: String, parameters: [Parameter]) {
        self.target = target
        self.parameters = parameters
    }

    public struct Parameter: Sendable, Equatable {
        public let name: String
        public let value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// The relation types of the first `rel` parameter (later ones are ignored, §3.3), lowercased
    /// since relation types compare case-insensitively; `rel="next last"` gives both.
    public var relations: [String] {
        guard let rel = parameters.first(where: { $0.name == "rel" })?.value else { return [] }
        return rel.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
    }
}

/// A parser for `Link` header fields (RFC 8288), tolerant the way browsers are: an element that
/// does not parse is skipped, never the whole field. Commas and semicolons inside `<…>` and inside
/// quoted strings do not split.
public enum LinkHeader {
    /// Every link of one or more `Link` field values (a response may send the field several times).
    public static func parse(_ fieldValues: [String]) -> [WebLink] {
        fieldValues.flatMap(parse)
    }

    public static func parse(_ fieldValue: String) -> [WebLink] {
        var scanner = Scanner(Array(fieldValue.unicodeScalars))
        var links: [WebLink] = []
        while true {
            scanner.skip { $0 == "," || isWhitespace($0) }
            guard let next = scanner.peek else { break }
            guard next == "<" else {
                scanner.skipElement()
                continue
            }
            scanner.advance()
            guard let target = scanner.take(until: { $0 == ">" }), scanner.peek == ">" else { break }
            scanner.advance()
            var parameters: [WebLink.Parameter] = []
            var valid = true
            while true {
                scanner.skip(isWhitespace)
                guard let separator = scanner.peek, separator != "," else { break }
                guard separator == ";" else {
                    valid = false
                    break
                }
                scanner.advance()
                scanner.skip(isWhitespace)
                let name = scanner.take(until: { $0 == "=" || $0 == ";" || $0 == "," || isWhitespace($0) }) ?? ""
                scanner.skip(isWhitespace)
                var value: String?
                if scanner.peek == "=" {
                    scanner.advance()
                    scanner.skip(isWhitespace)
                    if scanner.peek == "\"" {
                        guard let quoted = scanner.quotedString() else {
                            valid = false
                            break
                        }
                        value = quoted
                    } else {
                        value = scanner.take(until: { $0 == ";" || $0 == "," || isWhitespace($0) }) ?? ""
                    }
                }
                if !name.isEmpty { parameters.append(WebLink.Parameter(name: name.lowercased(), value: value)) }
            }
            if valid {
                links.append(WebLink(target: target, parameters: parameters))
            } else {
                scanner.skipElement()
            }
        }
        return links
    }

    /// The target of the first link with relation `relation`, resolved against `base` (the URL
    /// of the request that got the response), as RFC 8288 §3.2 says a relative target is.
    public static func target(of relation: String, in fieldValues: [String], relativeTo base: String) -> String? {
        let wanted = relation.lowercased()
        guard let link = parse(fieldValues).first(where: { $0.relations.contains(wanted) }) else { return nil }
        guard let baseURL = URL(string: base), let resolved = URL(string: link.target, relativeTo: baseURL) else {
            return URL(string: link.target)?.scheme != nil ? link.target : nil
        }
        return resolved.absoluteString
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n"
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func advance() { index += 1 }

        mutating func skip(_ predicate: (Unicode.Scalar) -> Bool) {
            while let scalar = peek, predicate(scalar) { index += 1 }
        }

        /// Characters up to (not including) the first one matching `stop`, or to the end.
        mutating func take(until stop: (Unicode.Scalar) -> Bool) -> String? {
            let start = index
            while let scalar = peek, !stop(scalar) { index += 1 }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[start..<index])
            return String(text)
        }

        /// A quoted-string (RFC 9110 §5.6.4) starting at the opening quote; nil if it never closes.
        mutating func quotedString() -> String? {
            advance()
            var text = String.UnicodeScalarView()
            while let scalar = peek {
                advance()
                if scalar == "\"" { return String(text) }
                if scalar == "\\" {
                    guard let escaped = peek else { return nil }
                    advance()
                    text.append(escaped)
                } else {
                    text.append(scalar)
                }
            }
            return nil
        }

        /// Skips the rest of a malformed element, up to the next comma outside `<…>` and quotes.
        mutating func skipElement() {
            var inQuotes = false, inBrackets = false
            while let scalar = peek {
                if inQuotes {
                    if scalar == "\\" { advance() } else if scalar == "\"" { inQuotes = false }
                } else if inBrackets {
                    if scalar == ">" { inBrackets = false }
                } else if scalar == "\"" {
                    inQuotes = true
                } else if scalar == "<" {
                    inBrackets = true
                } else if scalar == "," {
                    return
                }
                advance()
            }
        }
    }
}
