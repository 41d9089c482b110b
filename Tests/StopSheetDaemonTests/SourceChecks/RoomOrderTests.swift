import Foundation
import StopSheetTestSupport
import Testing

/// The daemon's rooms depend one way (docs/architecture.md, "Rooms"): a room uses the types and
/// functions of the rooms below it, never of a room above it, nor of a room beside it on its
/// layer. Read from the sources' text, as `DescriptorOwnershipTests` holds the close rule: each
/// name's room is the folder of Sources/StopSheetDaemon it is declared in (its first folder, so
/// `Lifecycle/Systemd/` is Lifecycle's), and every use of it in another room's code (comments and
/// strings aside) must come from a room above it.
@Suite struct RoomOrderTests {
    /// Bottom first; rooms on one layer know nothing of each other. architecture.md draws this.
    static let layers: [[String]] = [
        ["Support"], ["Logging", "Upstream"], ["Config"], ["Transport"], ["Wire"], ["Data", "RPC"], ["Methods"], ["Push"], ["Lifecycle"],
    ]

    static func layer(of room: String) -> Int? { layers.firstIndex { $0.contains(room) } }

    /// A file's room and its text.
    struct SourceFile {
        let path: String
        let room: String
        let text: String
    }

    static func daemonSources() throws -> [SourceFile] {
        let root = Fixtures.packageRoot + "/Sources/StopSheetDaemon/"
        let files = try #require(FileManager.default.enumerator(atPath: root))
        var found: [SourceFile] = []
        for case let path as String in files where path.hasSuffix(".swift") {
            let room = path.split(separator: "/").count > 1 ? String(path.split(separator: "/")[0]) : "(no room)"
            found.append(SourceFile(path: path, room: room, text: try String(contentsOfFile: root + path, encoding: .utf8)))
        }
        return found.sorted { $0.path < $1.path }
    }

    /// Names declared at a file's top level: types, type aliases, functions.
    static func declaredNames(in text: String) -> [String] {
        let declaration = /^(?:(?:public|internal|private|fileprivate|package|final|indirect|nonisolated|@[A-Za-z]+(?:\([^)]*\))?) +)*(?:struct|class|enum|protocol|actor|typealias|func) +([A-Za-z_][A-Za-z0-9_]*)/
            .anchorsMatchLineEndings()
        return text.matches(of: declaration).map { String($0.output.1) }
    }

    /// The code without its comments and string literals, which may name anything.
    static func code(of text: String) -> String {
        text.replacing(/\/\*[\s\S]*?\*\//, with: "")
            .replacing(/"""[\s\S]*?"""/, with: "\"\"")
            .replacing(/"(?:[^"\\\n]|\\.)*"/, with: "\"\"")
            .replacing(/\/\/[^\n]*/, with: "")
    }

    /// Each use of a name that another room declares: the using file, the name, its room.
    static func crossRoomUses(_ sources: [SourceFile]) -> [(file: SourceFile, name: String, room: String)] {
        var owner: [String: String] = [:]
        for file in sources {
            for name in declaredNames(in: file.text) { owner[name] = file.room }
        }
        var found: [(file: SourceFile, name: String, room: String)] = []
        for file in sources {
            // A word with a dot before it is a member (`x.Store`), not the name.
            let words = code(of: file.text).matches(of: /\.?[A-Za-z_][A-Za-z0-9_]*/).map { String($0.output) }
            for name in Set(words.filter { !$0.hasPrefix(".") }).sorted() {
                guard let room = owner[name], room != file.room else { continue }
                found.append((file, name, room))
            }
        }
        return found
    }

    /// Every use of a name from a room not below the user's, as "file: name (room)".
    static func upwardUses(_ sources: [SourceFile]) -> [String] {
        crossRoomUses(sources).compactMap { use in
            if let user = layer(of: use.file.room), let declared = layer(of: use.room), declared < user { return nil }
            return "\(use.file.path): \(use.name) (\(use.room))"
        }
    }

    /// Support's names that fewer than two other rooms use, as "name: rooms": each belongs in
    /// the room that uses it (Support is what several rooms need, not a catch-all).
    static func supportNamesOfOneRoom(_ sources: [SourceFile]) -> [String] {
        var users: [String: Set<String>] = [:]
        for file in sources where file.room == "Support" {
            for name in declaredNames(in: file.text) { users[name] = [] }
        }
        for use in crossRoomUses(sources) where use.room == "Support" { users[use.name, default: []].insert(use.file.room) }
        return users.filter { $0.value.count < 2 }.map { "\($0.key): \($0.value.sorted())" }.sorted()
    }

    @Test func everyRoomIsOnALayer() throws {
        let rooms = Set(try Self.daemonSources().map(\.room))
        #expect(rooms == Set(Self.layers.joined()), "a room not drawn, or a drawn room gone: \(rooms.symmetricDifference(Self.layers.joined()))")
    }

    @Test func supportHoldsOnlyWhatSeveralRoomsUse() throws {
        let found = Self.supportNamesOfOneRoom(try Self.daemonSources())
        #expect(found.isEmpty, "Support names one room alone uses (move each to its room):\n\(found.joined(separator: "\n"))")
    }

    @Test func noRoomUsesARoomAboveOrBesideIt() throws {
        let found = Self.upwardUses(try Self.daemonSources())
        #expect(found.isEmpty, "uses of a room above or beside the user's (docs/architecture.md, Rooms):\n\(found.joined(separator: "\n"))")
    }

    /// The scan sees what it must: a use from below, a use from beside, a function as well as a
    /// type; and not a name in a comment or a string, nor a member of the same spelling.
    @Test func theScanFindsAnUpwardUseAndNothingElse() {
        let sources = [
            SourceFile(path: "Lifecycle/Daemon.swift", room: "Lifecycle", text: "final class Daemon {}\npublic func ignoreSIGPIPE() {}"),
            SourceFile(path: "Data/Store.swift", room: "Data", text: "final class Store { let daemon: Daemon? = nil }"),
            SourceFile(path: "RPC/Session.swift", room: "RPC", text: "struct Session { func f() { _ = Store.self } }"),
            SourceFile(path: "Wire/Answers.swift", room: "Wire", text: "// Daemon\nlet a = \"Store\"\nfunc g() { ignoreSIGPIPE(); _ = x.Daemon }"),
            SourceFile(path: "Methods/Health.swift", room: "Methods", text: "func h(_ store: Store, _ session: Session) {}"),
        ]
        #expect(Self.upwardUses(sources) == ["Data/Store.swift: Daemon (Lifecycle)", "RPC/Session.swift: Store (Data)", "Wire/Answers.swift: ignoreSIGPIPE (Lifecycle)"])
        let support = [SourceFile(path: "Support/Locked.swift", room: "Support", text: "final class Locked {}\nstruct Lonely {}\nfunc unused() {}")]
        let users = [SourceFile(path: "Data/A.swift", room: "Data", text: "let a: Locked\nlet b: Lonely"),
                     SourceFile(path: "RPC/B.swift", room: "RPC", text: "let c: Locked")]
        #expect(Self.supportNamesOfOneRoom(support + users) == ["Lonely: [\"Data\"]", "unused: []"])
    }
}
