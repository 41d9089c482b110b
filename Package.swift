// swift-tools-version:6.0
import PackageDescription

// Layering (see README "Layout"): a pure domain core, a daemon library with all I/O,
// C shims that only expose system headers, and two executables that only wire things.
let package = Package(
    name: "StopSheet",
    products: [
        .executable(name: "stopsheetd", targets: ["stopsheetd"]),
        .executable(name: "stopsheetctl", targets: ["stopsheetctl"]),
    ],
    targets: [
        // libm: the stdlib's Double rounding calls into it, and the core imports no Glibc.
        .target(name: "StopSheetCore", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "CLinux"),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "StopSheetDaemon",
            dependencies: ["StopSheetCore", "CLinux", "CSystemd", "CCurl", "CZlib"],
            resources: [
                .embedInCode("Demo/alerts.json"),
                .embedInCode("Demo/stops.csv"),
            ]
        ),
        .executableTarget(name: "stopsheetd", dependencies: ["StopSheetDaemon"]),
        .executableTarget(name: "stopsheetctl", dependencies: ["StopSheetDaemon"]),
        // `make bench`: closed-loop load generator, echo baseline server, snapshot-build timing.
        .executableTarget(name: "stopsheet-bench", dependencies: ["StopSheetCore", "CLinux", "StopSheetDaemon"], path: "Benchmarks/StopSheetBench"),
        .testTarget(name: "StopSheetCoreTests", dependencies: ["StopSheetCore"]),
        .testTarget(name: "StopSheetDaemonTests", dependencies: ["StopSheetDaemon", "StopSheetCore"]),
    ]
)
