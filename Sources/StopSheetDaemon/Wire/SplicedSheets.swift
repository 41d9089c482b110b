import StopSheetCore

/// The snapshot's sheets with the current `data` member appended, each spliced once per change
/// of the data — at most once a second while a cache is loaded, since the age moves — instead
/// of once per answer: an answer then costs a lookup, as before `data` existed. Holds at most one
/// spliced copy of each sheet, of one snapshot. Shared under its lock; the serving loop is its
/// one frequent caller.
final class SplicedSheets: Sendable {
    private struct State {
        var snapshot: EncodedSnapshot?
        var data: SheetData?
        var encodedData: [UInt8] = []
        var sheets: [[UInt8]?] = []

        mutating func update(_ snapshot: EncodedSnapshot, _ data: SheetData) {
            guard self.snapshot !== snapshot || self.data != data else { return }
            self.snapshot = snapshot
            self.data = data
            encodedData = data.json.encoded
            sheets = Array(repeating: nil, count: snapshot.stationCount)
        }
    }
    private let state = Locked(State())

    /// The sheet at `index` of `snapshot` with `data` as its last member.
    func sheet(at index: Int, of snapshot: EncodedSnapshot, data: SheetData) -> [UInt8] {
        state.withLock { state in
            state.update(snapshot, data)
            if let sheet = state.sheets[index] { return sheet }
            let sheet = SheetData.appending(state.encodedData, to: snapshot.stopSheet(at: index))
            state.sheets[index] = sheet
            return sheet
        }
    }

    /// The encoded `data` member, for a sheet that is not one of the snapshot's.
    func encodedData(_ data: SheetData, of snapshot: EncodedSnapshot) -> [UInt8] {
        state.withLock { state in
            state.update(snapshot, data)
            return state.encodedData
        }
    }
}
