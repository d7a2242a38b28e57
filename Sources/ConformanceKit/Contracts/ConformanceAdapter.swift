#if compiler(>=6.2)
/// The root of the pager adapter protocols, `PagerModelAdapter` and `AsyncPagerAdapter`.
///
/// The kit runs each contract under a watchdog, in a closure that may hop between tasks, and
/// it reaches the adapter's static members (its capabilities, `init()`) from there. That needs
/// the adapter's metatype to be sendable, which Swift 6.2 spells `SendableMetatype`. Your
/// adapter conforms without any code: any struct, class or actor satisfies it as long as its
/// conformance to the adapter protocol is not isolated to a global actor.
///
/// `WriteQueueAdapter` does not refine it: it refines `Sendable`, which implies
/// `SendableMetatype`. The S contracts take a URL, not an adapter.
public protocol ConformanceAdapter: SendableMetatype {}
#else
/// The root of the pager adapter protocols (see the Swift 6.2 declaration).
public protocol ConformanceAdapter {}
#endif
