// What a team imports in its test target: the engine, the contracts and the bridge.
@_exported import ConformanceKit
@_exported import PagerContracts
