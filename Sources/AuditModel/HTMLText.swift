/// HTML escaping shared by the dashboard's renderer and its server: text and attribute values
/// alike (`&`, `<`, `>`, `"`, `'`).
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        // Over UTF-8 bytes (all five are ASCII, and no UTF-8 continuation byte is ASCII): most
        // text needs nothing and is returned as it is. Appending scalar by scalar was a third of
        // a dashboard render's time.
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 32)
        for byte in utf8 { appendEscaped(byte, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `byte` of UTF-8 text to `out`, as an entity when it is one of the five.
    @inline(__always)
    public static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case 0x26: out.append(contentsOf: [0x26, 0x61, 0x6D, 0x70, 0x3B])              // &amp;
        case 0x3C: out.append(contentsOf: [0x26, 0x6C, 0x74, 0x3B])                    // &lt;
        case 0x3E: out.append(contentsOf: [0x26, 0x67, 0x74, 0x3B])                    // &gt;
        case 0x22: out.append(contentsOf: [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B])        // &quot;
        case 0x27: out.append(contentsOf: [0x26, 0x23, 0x33, 0x39, 0x3B])              // &#39;
        default: out.append(byte)
        }
    }
}
