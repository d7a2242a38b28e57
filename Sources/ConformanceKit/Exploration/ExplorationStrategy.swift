/// How the explorer chooses schedules.
public enum ExplorationStrategy: Hashable, Sendable, CustomStringConvertible {
    /// Random schedules from one seed: schedule `i` uses ``SplitMix64/forSchedule(_:of:)``, so
    /// the same seed reproduces the same run exactly, whatever the number of cores.
    case random(seed: UInt64)
    /// Every schedule up to `depth` steps over a small, fixed alphabet of steps, skipping a
    /// prefix whose observable state and outstanding requests were already seen.
    case exhaustive(depth: Int)

    public var description: String {
        switch self {
        case .random(let seed): "random, seed \(seed)"
        case .exhaustive(let depth): "exhaustive, depth \(depth)"
        }
    }
}
