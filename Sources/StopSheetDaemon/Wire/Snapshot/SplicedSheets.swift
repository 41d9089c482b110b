import StopSheetCore
import StopSheetProtocol

/// A snapshot's sheets with the current `data` member filled in, each spliced once per change
/// of the data — at most once a second while a cache is loaded, since the age moves — instead of
/// once per answer: an answer then costs a lookup, as before `data` existed. Holds at most one
/// spliced copy of each sheet, of one snapshot (a generation's `encoded`; generations that share
/// one share its spliced sheets).
///
/// Owned by the serving loop: `StopSheetService`'s handlers, which run there, are its only users,
/// so it takes no lock (the store's lock is never held while it splices); debug builds check that
/// one thread alone uses it (`OwningThread`).
///
/// Its fields skip the run-time exclusivity check (`@exclusivity(unchecked)`): one thread owns
/// them, and the check's bookkeeping cost the answer more than the splice cache saves.
final class SplicedSheets: @unchecked Sendable {
    @exclusivity(unchecked) private var snapshot: EncodedSnapshot?
    /// The whole `data` the spliced copies hold: any member added to `SheetData` is part of the key
    /// by construction, and `Answer.SheetData` is made from it alone (`SheetData.answer`).
    @exclusivity(unchecked) private var data: SheetData?
    @exclusivity(unchecked) private var encodedData: PreEncoded<Answer.SheetData>?
    @exclusivity(unchecked) private var sheets: [PreEncoded<Answer.Sheet>?] = []
    @exclusivity(unchecked) private var thread = OwningThread()

    /// The sheet at `index` of `snapshot` with `data` in its place.
    func sheet(at index: Int, of snapshot: EncodedSnapshot, data: SheetData) -> PreEncoded<Answer.Sheet> {
        update(snapshot, data)
        if let sheet = sheets[index] { return sheet }
        let sheet = PreEncoded(snapshot.stopSheet(at: index), data: encodedData!)
        sheets[index] = sheet
        return sheet
    }

    /// The encoded `data` member, for a sheet that is not one of the snapshot's.
    func encodedData(_ data: SheetData, of snapshot: EncodedSnapshot) -> PreEncoded<Answer.SheetData> {
        update(snapshot, data)
        return encodedData!
    }

    private func update(_ snapshot: EncodedSnapshot, _ data: SheetData) {
        thread.check("SplicedSheets")
        guard self.snapshot !== snapshot || self.data != data else { return }
        self.snapshot = snapshot
        self.data = data
        encodedData = data.encoded
        sheets = Array(repeating: nil, count: snapshot.stationCount)
    }
}
