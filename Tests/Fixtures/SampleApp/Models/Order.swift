import Foundation

/// Not UI code: the scanner skips it before parsing.
struct Order: Codable, Identifiable {
    let id: UUID
    var items: [String]
    var isPaid: Bool
    var total: Decimal
}
