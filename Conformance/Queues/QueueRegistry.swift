import ConformanceKit

extension BundledImplementations {
    /// The bundled write queues (filled in by the write-queue work).
    public static var queues: [ImplementationUnderCheck] { [] }
}
