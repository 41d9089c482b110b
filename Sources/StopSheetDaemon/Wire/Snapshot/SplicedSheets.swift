import StopSheetCore
import StopSheetProtocol

/// The generation's sheets with the current `data` member filled in, each spliced once per change
/// of the data — at most once a second while a cache is loaded, since the age moves — instead of
/// once per answer: an answer then costs a lookup, as before `data` existed. Holds at most one
/// spliced copy of each sheet, of one generation.
///
/// Owned by the serving loop: `StopSheetService`'s handlers, which run there, are its only users,
/// so it takes no lock (the store's lock is never held while it splices); debug builds check that
/// one thread alone uses it (`OwningThread`).
///
/// Its fields skip the run-time exclusivity check (`@exclusivity(unchecked)`): one thread owns
/// them, and the check's bookkeeping cost the answer more than the splice cache saves.
final class SplicedSheets: @unchecked Sendable {
    @exclusivity(unchecked) private var generation: Generation?
    @exclusivity(unchecked) private var key: (alerts: Int64, stations: Int64, facilities: Int64)?
    @exclusivity(unchecked) private var encodedData: PreEncoded<Answer.SheetData>?
    @exclusivity(unchecked) private var sheets: [PreEncoded<Answer.Sheet>?] = []
    @exclusivity(unchecked) private var thread = OwningThread()

    /// The sheet at `index` of `generation` with `data` in its place.
    func sheet(at index: Int, of generation: Generation, data: SheetData) -> PreEncoded<Answer.Sheet> {
        update(generation, data)
        if let sheet = sheets[index] { return sheet }
        let sheet = PreEncoded(generation.encoded.stopSheet(at: index), data: encodedData!)
        sheets[index] = sheet
        return sheet
    }

    /// The encoded `data` member, for a sheet that is not one of the generation's.
    func encodedData(_ data: SheetData, of generation: Generation) -> PreEncoded<Answer.SheetData> {
        update(generation, data)
        return encodedData!
    }

    private func update(_ generation: Generation, _ data: SheetData) {
        thread.check("SplicedSheets")
        let key = (Self.code(data.alerts), Self.code(data.stations), Self.code(data.facilities))
        guard self.generation !== generation || self.key.map({ $0 != key }) ?? true else { return }
        self.generation = generation
        self.key = key
        encodedData = data.encoded
        sheets = Array(repeating: nil, count: generation.encoded.stationCount)
    }

    /// A cache's freshness as one number, -1 when not loaded: comparing two numbers per answer
    /// costs a few instructions, comparing the values (across the module boundary) ten times more.
    private static func code(_ freshness: DataFreshness) -> Int64 {
        freshness.ageSeconds.map { $0 << 1 | (freshness.stale ? 1 : 0) } ?? -1
    }
}
