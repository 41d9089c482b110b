import StopSheetCore

/// The snapshot's sheets with the current `data` member appended, each spliced once per change
/// of the data — at most once a second while a cache is loaded, since the age moves — instead of
/// once per answer: an answer then costs a lookup, as before `data` existed. Holds at most one
/// spliced copy of each sheet, of one snapshot. A value kept in the `Store`'s state and changed
/// under its lock only (`Store.stopSheet(stopID:now:)`), so an answer takes one lock, as before.
struct SplicedSheets {
    private var snapshot: EncodedSnapshot?
    private var key: (alerts: Int64, stations: Int64)?
    private var encodedData: [UInt8] = []
    private var sheets: [[UInt8]?] = []

    /// The sheet at `index` of `snapshot` with `data` as its last member.
    mutating func sheet(at index: Int, of snapshot: EncodedSnapshot, data: SheetData) -> [UInt8] {
        update(snapshot, data)
        if let sheet = sheets[index] { return sheet }
        let sheet = SheetData.appending(encodedData, to: snapshot.stopSheet(at: index))
        sheets[index] = sheet
        return sheet
    }

    /// The encoded `data` member, for a sheet that is not one of the snapshot's.
    mutating func encodedData(_ data: SheetData, of snapshot: EncodedSnapshot) -> [UInt8] {
        update(snapshot, data)
        return encodedData
    }

    private mutating func update(_ snapshot: EncodedSnapshot, _ data: SheetData) {
        let key = (Self.code(data.alerts), Self.code(data.stations))
        guard self.snapshot !== snapshot || self.key.map({ $0 != key }) ?? true else { return }
        self.snapshot = snapshot
        self.key = key
        encodedData = data.json.encoded
        sheets = Array(repeating: nil, count: snapshot.stationCount)
    }

    /// A cache's freshness as one number, -1 when not loaded: comparing two numbers per answer
    /// costs a few instructions, comparing the values (across the module boundary) ten times more.
    private static func code(_ freshness: DataFreshness) -> Int64 {
        freshness.ageSeconds.map { $0 << 1 | (freshness.stale ? 1 : 0) } ?? -1
    }
}

/// What `Store.stopSheet(stopID:now:)` found.
public enum StopSheetLookup {
    /// The station's whole answer, `data` included.
    case sheet([UInt8])
    /// The id names no station of `snapshot`; `data` is the encoded `data` member for a sheet
    /// made otherwise (before stations load).
    case noStation(EncodedSnapshot, data: [UInt8])
}
