import CCrypto

/// SHA-256 from OpenSSL's libcrypto: cache keys and fingerprints must not collide by accident.
public enum Digest {
    public static func sha256Hex(_ text: String) -> String {
        sha256Hex(Array(text.utf8))
    }

    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { buffer in
            EVP_Digest(buffer.baseAddress, buffer.count, &output, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1, "EVP_Digest(SHA-256) failed: libcrypto is unusable")
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(Int(length) * 2)
        for byte in output.prefix(Int(length)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
