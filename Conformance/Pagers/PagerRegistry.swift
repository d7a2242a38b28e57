import ConformanceKit

extension BundledImplementations {
    /// The bundled pagers (filled in by the pager work).
    public static var pagers: [ImplementationUnderCheck] { [] }
}
