import Glibc
import Posix
import StopSheetCore

/// The system's time-zone database (Debian's `tzdata`), where glibc looks for it: `$TZDIR`,
/// else `/usr/share/zoneinfo`. The daemon reads the zone it shows here, and `stopsheetctl` the
/// zone the daemon names. A zone is read from its TZif file when it is chosen, so an update of
/// tzdata (a change in the law) reaches the daemon at its next start or reload. Any thread.
public enum TimeZoneDatabase {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public static var directory: String {
        getenv("TZDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
    }

    /// The rules of `identifier` (`America/New_York`), or why there are none.
    public static func rules(_ identifier: String) throws(Failure) -> TimeZoneRules {
        // A name, not a path: no way out of the database's directory.
        let components = identifier.split(separator: "/", omittingEmptySubsequences: false)
        guard !identifier.isEmpty, identifier.utf8.count <= maxNameBytes,
              components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }), identifier.utf8.allSatisfy({ isNameByte($0) })
        else {
            // Quoted as given, as every value of the configuration is, but never at length.
            let shown = identifier.utf8.count <= maxNameBytes ? identifier : String(identifier.unicodeScalars.prefix(maxNameBytes / 2).map(Character.init)) + "…"
            throw Failure(description: "'\(shown)' is not a time-zone name (such as America/New_York)")
        }
        let path = directory + "/" + identifier
        let bytes: [UInt8]
        switch LocalFile.read(path, maxBytes: 1 << 20, regularOnly: true) {
        case .success(let read): bytes = read
        case .failure:
            throw Failure(description: "'\(identifier)' is not a zone of the time-zone database in \(directory) (is tzdata installed?)")
        }
        do {
            return try TZifDecoder.decode(bytes, identifier: identifier)
        } catch {
            throw Failure(description: "\(path) is not a usable time-zone file: \(error)")
        }
    }

    /// Longer than any zone's name (the longest are about 30 bytes).
    private static let maxNameBytes = 120

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}
