// swift-tools-version: 6.1
//
// The conformance kit: contracts for paginated lists and offline write queues, written once
// as scripted timelines and run against a team's own implementation through a small adapter.
// Zero package dependencies: only the Swift toolchain.

import PackageDescription

let strictSwift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "swift-conformance-kit",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "ConformanceTesting", targets: ["ConformanceTesting"]),
        .library(name: "ConformanceKit", targets: ["ConformanceKit"]),
        .library(name: "PagerContracts", targets: ["PagerContracts"]),
        .library(name: "WriteQueueContracts", targets: ["WriteQueueContracts"]),
        .library(name: "ReferenceImplementations", targets: ["ReferenceImplementations"]),
        .library(name: "ServerContracts", targets: ["ServerContracts"]),
        .library(name: "IdempotencyServer", targets: ["IdempotencyServer"]),
        .library(name: "HTMLReport", targets: ["HTMLReport"]),
        .executable(name: "conformance", targets: ["conformance"]),
        .executable(name: "fault-server", targets: ["fault-server"]),
    ],
    targets: [
        // The engine: descriptors, timelines, reports, ledgers, watchdog. No test framework.
        .target(name: "ConformanceKit", swiftSettings: strictSwift6),
        // Pager adapters, the scripted page source, the P contracts.
        .target(name: "PagerContracts", dependencies: ["ConformanceKit"], swiftSettings: strictSwift6),
        // Queue adapters, the controlled transport and idempotency ledger, the manual clock,
        // the crash harness, the Q contracts.
        .target(name: "WriteQueueContracts", dependencies: ["ConformanceKit"], swiftSettings: strictSwift6),
        // The Swift Testing bridge: the only module that imports Testing.
        .target(
            name: "ConformanceTesting",
            dependencies: ["ConformanceKit", "PagerContracts", "WriteQueueContracts", "ServerContracts"],
            swiftSettings: strictSwift6
        ),
        // The S contracts: idempotency-key checks over HTTP against any base URL.
        .target(name: "ServerContracts", dependencies: ["ConformanceKit"], swiftSettings: strictSwift6),
        // The report page: one self-contained HTML file for a matrix, an exploration or a
        // team's Swift Testing event stream. No test framework.
        .target(name: "HTMLReport", dependencies: ["ConformanceKit"], swiftSettings: strictSwift6),
        // The fault server's core: HTTP/1.1 on POSIX sockets, records, journal, fault modes.
        // It uses the engine's lock type only.
        .target(name: "IdempotencyServer", dependencies: ["ConformanceKit"], swiftSettings: strictSwift6),
        // `swift run fault-server`: the seed's fault_server.py, durable and concurrent.
        .executableTarget(name: "fault-server", dependencies: ["IdempotencyServer"], swiftSettings: strictSwift6),
        // Small, readable, correct implementations: what teams read to learn the rules.
        .target(name: "ReferenceImplementations", swiftSettings: strictSwift6),
        // Every implementation under check, with its adapter and ledger (references, adopters, mutants).
        .target(
            name: "BundledImplementations",
            dependencies: [
                "ConformanceKit", "PagerContracts", "WriteQueueContracts", "ReferenceImplementations",
            ],
            path: "Conformance",
            exclude: ["README.md", "Queues/SecondTrial/README.md", "Queues/ThirdTrial/README.md", "Queues/FifthTrial/README.md", "Queues/SixthTrial/README.md", "Queues/SeventhTrial/README.md", "Queues/EighthTrial/README.md", "Queues/NinthTrial/README.md",
                "Pagers/Adopters/SixthTrial/README.md", "Pagers/Adopters/SeventhTrial/README.md", "Pagers/Adopters/TenthTrial/README.md",
                "Pagers/Adopters/EleventhTrial/README.md", "Pagers/Adopters/EighthTrial/README.md",
                "Pagers/Adopters/TwelfthTrial/README.md", "Queues/TwelfthTrial/README.md",
                "Queues/ThirteenthTrial/README.md", "Pagers/Adopters/ThirteenthTrial/README.md",
                "Queues/FourteenthTrial/README.md", "Pagers/Adopters/FourteenthTrial/README.md",
                "Queues/FifteenthTrial/README.md", "Pagers/Adopters/FifteenthTrial/README.md",
                "Queues/SixteenthTrial/README.md", "Pagers/Adopters/SixteenthTrial/README.md",
                "Queues/SeventeenthTrial/README.md", "Pagers/Adopters/SeventeenthTrial/README.md",
                "Queues/EighteenthTrial/README.md", "Pagers/Adopters/EighteenthTrial/README.md",
                "Queues/NineteenthTrial/README.md", "Pagers/Adopters/NineteenthTrial/README.md",
                "Pagers/Adopters/TwentiethTrial/README.md", "Queues/TwentiethTrial/README.md",
                "Pagers/Adopters/TwentyFirstTrial/README.md", "Queues/TwentyFirstTrial/README.md",
                "Pagers/Adopters/TwentySecondTrial/README.md", "Queues/TwentySecondTrial/README.md",
                "Pagers/Adopters/TwentyThirdTrial/README.md", "Queues/TwentyThirdTrial/README.md",
                "Queues/OutsideTrial/RoundNine/README.md", "Queues/OutsideTrial/NotesOutbox/README.md",
                "Pagers/Adopters/ThirtyFirstTrial/README.md", "Queues/OutsideTrial/OverflowBackoffOutbox/README.md",
                "Pagers/Adopters/ThirtyThirdTrial/README.md", "Queues/OutsideTrial/CommentOutbox/README.md",
                "Pagers/Adopters/ThirtyFourthTrial/README.md", "Queues/OutsideTrial/WorkOrderOutbox/README.md", "Queues/OutsideTrial/NoteSyncQueue/README.md",
                "Pagers/Adopters/ThirtySeventhTrial/README.md",
                "Pagers/Adopters/ThirtyNinthTrial/README.md",
            ],
            swiftSettings: strictSwift6
        ),
        // The main job: the conformance matrix over the bundled implementations.
        .executableTarget(
            name: "conformance",
            dependencies: [
                "ConformanceKit", "BundledImplementations", "ServerContracts", "IdempotencyServer", "HTMLReport",
            ],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "ConformanceKitTests",
            dependencies: ["ConformanceKit", "PagerContracts", "ConformanceTesting", "ReferenceImplementations"],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "WriteQueueContractsTests",
            dependencies: [
                "WriteQueueContracts", "ConformanceTesting", "BundledImplementations",
                "ReferenceImplementations",
            ],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "BundledConformanceTests",
            dependencies: ["BundledImplementations", "ConformanceTesting"],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "ExplorerTests",
            dependencies: ["BundledImplementations", "ConformanceTesting"],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "HTMLReportTests",
            dependencies: ["HTMLReport", "BundledImplementations", "ConformanceKit"],
            swiftSettings: strictSwift6
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: ["IdempotencyServer", "ServerContracts", "ConformanceTesting"],
            swiftSettings: strictSwift6
        ),
    ]
)
