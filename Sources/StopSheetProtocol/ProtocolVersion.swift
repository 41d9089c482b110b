/// The version of the wire contract (the methods, their params, the answers and notifications of
/// protocol.md, as `docs/openrpc.json` records them): `version`'s `protocol` and `rpc.discover`'s
/// `info.version`. Not the daemon's release version, which changes without the contract.
///
/// The policy, for whoever changes the contract (docs/openrpc.json shows every change in review):
/// - an added optional member, an added method or notification, an added word where a client
///   must already accept unknown ones: `minor` + 1;
/// - a removed or renamed member, a changed type, a newly required member (a client built on the
///   new types would fail on an older daemon), a removed method or word: `major` + 1, `minor` 0.
///
/// 2.0: the answers of 1 gained required members (a sheet's `now` and `stepFreeNow`, `configured`
/// and `producedAt` of a cache's entry in a sheet's `data` and in `health`), and `version`'s
/// `protocol` became this "major.minor" string.
///
/// 2.1: lift status (`--facilities-url`): `health.facilities`, a sheet's `data.facilities`,
/// `stats.refreshes.facilities`, `refresh`'s `facilities` entry and `what: "facilities"`, and the
/// `facilities` method; all added, each member omittable for a 2.0 daemon's answers.
///
/// 2.2: where each lift-status unit is: `facilities`' units gain `placedBy`, `unplaced` and
/// `candidates` (and list units at no station, `stationId` empty), a sheet's `now.outages[]`
/// `unplaced` and `candidates`, `health.facilities.placement`; all omittable, the words new;
/// and (issue 46) where a button's status came from (`accessibilityButton.stepFreeFrom`, a station's
/// `stepFreeFrom`: the station data or its map) and why the pathways cannot say (`now.reason`);
/// TfL's lift disruptions as a lift-status format. Added, omittable for a 2.1 daemon's answers.
///
/// 2.3 (issue 50): never "available" by default without a map: on basis `stations` each
/// platform's `entry`/`exit` is its reported value, its `true`s `null` under an elevator outage
/// that could be on its way, and `now.stepFree` derived from them; `now.outages[]` gain
/// `placedBy` and `platforms`, omittable for a 2.2 daemon's answers.
/// 2.4: which way is step-free now (issue 51): each `now.platforms[]` on a map gains `via`, its
/// street ends and whether each works now; omittable (a 2.3 daemon's answers, and stations
/// without a map); the method `stationMap`. With it (issue 54), a `facilities` unit of no stated
/// kind placed on pathways shows their kind, as the verdict counts it (before: `other`).
/// 2.5 (issue 52): which rule put a lift-status unit at its station: `facilities`' units gain
/// `joinedBy` (the words `table` and `position` new with the deployer's station table and the
/// position join), `distance` and `notJoined`, `health.facilities` gains `joined`; all omittable
/// for a 2.4 daemon's answers.
public enum ProtocolVersion {
    public static let major = 2
    public static let minor = 5

    /// "major.minor", such as "2.1".
    public static var text: String { "\(major).\(minor)" }
}
