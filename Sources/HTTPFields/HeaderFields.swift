/// One header field as it arrived or will be sent.
public struct HeaderField: Sendable, Equatable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Header fields in order, repeated names kept. Lookups ignore case, as HTTP field names do
/// (RFC 9110 §5.1).
public struct HeaderFields: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [HeaderField]

    public init(_ fields: [HeaderField] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { HeaderField(name: $0.0, value: $0.1) }
    }

    /// The first value of a field, whatever the case of its name.
    public subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of a field, in order (a field sent several times, like `Link` or `Set-Cookie`).
    public func values(for name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    public mutating func add(_ name: String, _ value: String) {
        fields.append(HeaderField(name: name, value: value))
    }

    /// Replaces every field of that name with one.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append(HeaderField(name: name, value: value))
    }

    public mutating func remove(_ name: String) {
        let wanted = name.lowercased()
        fields.removeAll { $0.name.lowercased() == wanted }
    }

    public func makeIterator() -> IndexingIterator<[HeaderField]> {
        fields.makeIterator()
    }
}
