// FieldReportOutboxAdapter.swift — test target (FieldInspectorTests)
// Written from Docs/WriteQueue.md only. In the app's test target this file starts with
// `@testable import FieldInspector`; here the queue is compiled into the same module.

import WriteQueueContracts
import Foundation

enum FieldReportOutboxAdapter: WriteQueueAdapter {
    // 2 s doubling to a 120 s ceiling; 408 and 429 retried (the kit's defaults), every other
    // 4xx stops the report. The queue never logs bodies.
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(120)))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("FieldReportOutbox-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> FieldReportOutbox {
        let transport = environment.transport
        // The app passes ProcessInfo.processInfo.systemUptime: the kit's uptime stands for it.
        return try FieldReportOutbox(
            directory: directory,
            post: { key, body in
                try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
            },
            now: environment.now,
            uptime: environment.uptime)
    }

    static func submit(_ operation: QueueOperation, to outbox: FieldReportOutbox) async throws {
        try await outbox.enqueue(operation.body, label: operation.id)
    }

    static func runSendingPass(_ outbox: FieldReportOutbox) async throws {
        await outbox.flush()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try FieldReportOutbox.storedReports(in: directory).map { report in
            PersistedTask(
                operationID: report.label,
                key: report.idempotencyKey,
                body: report.body,
                status: report.state == .needsAttention ? .needsAttention : .pending,
                attempts: report.attempts,
                createdAt: String(report.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: report.state == .needsAttention ? report.lastError : nil)
        }
    }

    static func diagnostics(of outbox: FieldReportOutbox, storage: URL) async -> [String] {
        await outbox.log
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
