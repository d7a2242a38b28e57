import Foundation

/// One gift-card redemption waiting for the payments API.
struct Redemption: Codable, Sendable {
    var id: UUID
    /// The checkout's own reference for the redemption, shown in support tools.
    var reference: String
    var idempotencyKey: String
    var body: Data
    var createdAt: Date
    var attempts: Int
    var nextAttempt: Date
    var stoppedReason: String?
}

/// `redemptions.plist` in the app's support directory, rewritten whole and atomically.
struct RedemptionStore: Sendable {
    let url: URL

    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent("redemptions.plist")
    }

    func load() -> [Redemption] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? PropertyListDecoder().decode([Redemption].self, from: data)) ?? []
    }

    func save(_ redemptions: [Redemption]) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        try encoder.encode(redemptions).write(to: url, options: .atomic)
    }
}

/// The payments API's redeem call, as the checkout screen builds it.
struct RedeemRequest: Encodable, Sendable {
    let cardNumber: String
    let pin: Int
    let amountCents: Int
    let storeID: String
}
