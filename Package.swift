// swift-tools-version:6.0
import PackageDescription

// Layering (see docs/architecture.md, "Layout"): a pure domain core, a daemon library with all I/O,
// C shims that only expose system headers, and two executables that only wire things.
let package = Package(
    name: "StopSheet",
    products: [
        .executable(name: "stopsheetd", targets: ["stopsheetd"]),
        .executable(name: "stopsheetctl", targets: ["stopsheetctl"]),
        // For other packages' integration tests: a typed client over the daemon's socket.
        .library(name: "StopSheetClient", targets: ["StopSheetClient"]),
    ],
    targets: [
        // libm: the stdlib's Double rounding calls into it, and so do the three functions the core
        // imports from Glibc (asin, cos, sin: a distance between coordinates); nothing else of it.
        .target(name: "StopSheetCore", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "CLinux"),
        // sockaddr_un, descriptor flags, errno text, eventfd: written once for every target.
        .target(name: "Posix", dependencies: ["CLinux"]),
        // The system's time-zone database: the daemon's zone, and stopsheetctl's reading of it.
        .target(name: "ZoneInfo", dependencies: ["StopSheetCore", "Posix"]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // ICU's collation behind types of its own (Foundation, in the tests, carries another ICU).
        .target(name: "CICU", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),
        // The wire contract, once for both sides: method names with their params and results,
        // error codes and messages, StopType; `rpc.discover`'s OpenRPC document is made from it.
        .target(name: "StopSheetProtocol", dependencies: ["StopSheetCore"]),
        // The demo snapshot's bytes (StopSheetDaemon/Demo/), embedded by the C compiler.
        .target(name: "CDemoData"),
        .target(
            name: "StopSheetDaemon",
            dependencies: ["StopSheetCore", "StopSheetProtocol", "Posix", "ZoneInfo", "CLinux", "CSystemd", "CCurl", "CArchive", "CLibXML2", "CICU", "CDemoData"],
            exclude: ["Demo"]
        ),
        .executableTarget(name: "stopsheetd", dependencies: ["StopSheetDaemon"]),
        // Not the daemon library: stopsheetctl links neither libcurl nor libsystemd.
        .target(name: "StopSheetClient", dependencies: ["StopSheetCore", "StopSheetProtocol", "Posix"]),
        .executableTarget(name: "stopsheetctl", dependencies: ["StopSheetClient", "StopSheetCore", "StopSheetProtocol", "Posix", "ZoneInfo"]),
        // `make bench`: closed-loop load generator, echo baseline server, snapshot-build timing.
        .executableTarget(name: "stopsheet-bench", dependencies: ["StopSheetCore", "StopSheetProtocol", "StopSheetDaemon", "StopSheetClient", "Posix", "ZoneInfo", "CLinux"], path: "Benchmarks/StopSheetBench"),
        // The tests' one fixture locator, shared by both test targets.
        .target(name: "StopSheetTestSupport", dependencies: ["StopSheetCore"], path: "Tests/StopSheetTestSupport"),
        .testTarget(name: "StopSheetCoreTests", dependencies: ["StopSheetCore", "StopSheetTestSupport"]),
        .testTarget(name: "StopSheetDaemonTests", dependencies: ["StopSheetDaemon", "StopSheetClient", "StopSheetCore", "StopSheetProtocol", "Posix", "CLinux", "ZoneInfo", "StopSheetTestSupport"]),
    ]
)
