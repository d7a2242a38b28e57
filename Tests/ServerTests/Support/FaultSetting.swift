import ConformanceKit
import IdempotencyServer
import Testing

/// A fault mode and a conflict profile the fault server runs under.
struct FaultSetting: Sendable, CustomTestStringConvertible {
    let mode: FaultMode
    let profile: ConflictProfile

    /// Every fault mode under every conflict profile.
    static let all: [FaultSetting] = FaultMode.allCases.flatMap { mode in
        ConflictProfile.allCases.map { FaultSetting(mode: mode, profile: $0) }
    }

    var testDescription: String { "\(mode), \(profile)" }
}
