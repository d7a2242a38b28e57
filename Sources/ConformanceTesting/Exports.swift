// What a team imports in its test target: the engine, every family of contracts and the bridge.
@_exported import ConformanceKit
@_exported import PagerContracts
@_exported import ServerContracts
@_exported import WriteQueueContracts
